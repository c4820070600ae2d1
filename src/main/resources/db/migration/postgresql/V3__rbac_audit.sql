-- Every access decision (allow and deny), written in the request that made it. Schema of the design notes.
create table rbac_audit_log (
    id             bigserial primary key,
    user_id        varchar(256),
    user_groups    text[],
    resource_type  varchar(32),
    resource_name  varchar(256),
    action         varchar(32),
    decision       varchar(32),
    reason         varchar(256),
    "timestamp"    timestamp default now(),
    trace_id       varchar(256)
);
create index rbac_audit_log_user_idx on rbac_audit_log (user_id, "timestamp");
create index rbac_audit_log_trace_idx on rbac_audit_log (trace_id);
