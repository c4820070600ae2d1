-- Session-stable contexts shared by the replicas (retrieval/session/JdbcSessionContexts, issue 27): each
-- (caller, session)'s previous context, so a session keeps its prompt prefix on whichever replica answers its next
-- turn. Runs on PostgreSQL and on H2 (MODE=PostgreSQL).
-- session_key:   SHA-256 (hex) of the caller's subject and the session id
-- chunk_ids:     JSON array of the context's chunk ids, in context order
-- prompt_tokens: the context prompt's token ids, 4 bytes each (big-endian), cut to poimen.session.max-tokens
-- version:       +1 for each stored turn; a turn is stored only over the version it read
-- last_used:     the database's clock at the last stored turn (every replica compares against the same clock)
create table session_contexts (
    session_key    varchar(64)  primary key,
    chunk_ids      text         not null,
    prompt_tokens  bytea        not null,
    version        bigint       not null,
    last_used      timestamp    not null
);
create index session_contexts_last_used_idx on session_contexts (last_used);
