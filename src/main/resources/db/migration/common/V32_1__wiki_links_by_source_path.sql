-- A note's links are read, deleted (every re-ingest of the note) and re-resolved (every relink) by source_path
-- alone, without the project: under the old (project, source_path) index each such statement read the whole
-- index. 500 deletes on 100,000 links: 344 ms before, 13 ms after (PostgreSQL 15, 2026-12-05); a full reindex
-- grew quadratically with the links. The unique key (project, source_path, target_path) still serves the
-- lookups that name the project.
drop index wiki_links_source_idx;
create index wiki_links_source_target_idx on wiki_links (source_path, target_path);
