-- Each note's front matter as a JSON object (search filters on any front-matter field). Notes stored before have
-- none yet: an empty content hash makes the next ingest parse and store each of them again.
alter table documents add column front_matter text;
update documents set content_hash = '';
