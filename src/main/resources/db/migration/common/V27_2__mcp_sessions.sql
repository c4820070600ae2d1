-- MCP sessions the hub opened (mcp/McpSessions, issue 27 item 2): any replica serves every request of a session,
-- so the session lives here rather than in one process. Runs on PostgreSQL and on H2 (MODE=PostgreSQL).
-- id:          the Mcp-Session-Id the hub sent (a random UUID)
-- owner_key:   SHA-256 (hex) of the caller who opened it (its subject, or the local operator of the no-auth mode)
-- client_name: clientInfo.name of its initialize (the agent of its memory_retrieved events), cut to 1,024 characters
-- last_used:   the database's clock when a request last named it (updated at most once a minute); a session
--              idle for poimen.mcp.session-idle-timeout is gone
create table mcp_sessions (
    id           varchar(64)    primary key,
    owner_key    varchar(64)    not null,
    client_name  varchar(1024),
    created_at   timestamp      not null,
    last_used    timestamp      not null
);
create index mcp_sessions_last_used_idx on mcp_sessions (last_used);
