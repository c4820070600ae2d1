-- Measured cache alignment per project (issue 16): one row per project, written by ProjectCacheStats.
-- cache_hit_ratio = tokens_reused / tokens_served: the share of served context tokens that were a common prefix
-- with the session's previous context (the part a model's prompt cache can reuse).
alter table project_index_metadata add column chunks_served bigint default 0 not null;
alter table project_index_metadata add column tokens_served bigint default 0 not null;
alter table project_index_metadata add column tokens_reused bigint default 0 not null;
create unique index project_index_metadata_project_idx on project_index_metadata (project);
