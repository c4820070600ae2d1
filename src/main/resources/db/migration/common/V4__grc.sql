-- GRC drafts (edits on their way to a Forgejo pull request) and the webhook deliveries already handled.
-- Runs on PostgreSQL and on H2 (MODE=PostgreSQL). "user" is reserved in both, so the caller is user_subject.

create table grc_drafts (
    id               varchar(36)   primary key,
    user_subject     varchar(256)  not null,
    author_name      varchar(256)  not null,
    author_email     varchar(256)  not null,
    document_path    varchar(1024) not null,
    content          text          not null,
    message          varchar(4000) not null,
    branch           varchar(512)  not null unique,
    status           varchar(16)   not null,
    attempts         int           not null default 0,
    last_error       varchar(4000),
    pr_number        int,
    pr_url           varchar(2048),
    next_attempt_at  timestamp,
    created_at       timestamp     not null,
    updated_at       timestamp     not null
);
create index grc_drafts_due_idx on grc_drafts (status, next_attempt_at);
create index grc_drafts_pr_idx on grc_drafts (pr_number);

create table webhook_deliveries (
    delivery_id  varchar(128) primary key,
    event        varchar(64),
    received_at  timestamp    not null
);
