-- Drafts reviewed on the hub itself or on Forgejo, made of operations over several notes, with the versions they were
-- made from (no lost update) and the review decision. Old rows stay readable: a row without operations is a write
-- of document_path with content; 'delivered' (pull request open) is now 'open', 'failed' is 'delivery_failed'.
alter table grc_drafts add column review_host varchar(16) not null default 'forgejo';
alter table grc_drafts add column operations text;
alter table grc_drafts add column changes text;
alter table grc_drafts add column base_commit varchar(64);
alter table grc_drafts add column conflicts text;
alter table grc_drafts add column reviewer varchar(256);
alter table grc_drafts add column review_comment varchar(4000);
alter table grc_drafts add column decided_at timestamp;
alter table grc_drafts add column merge_requested_at timestamp;
alter table grc_drafts add column merge_commit varchar(64);
update grc_drafts set status = 'open' where status = 'delivered';
update grc_drafts set status = 'delivery_failed' where status = 'failed';
create index grc_drafts_review_idx on grc_drafts (status, created_at);
