-- How often each chunk was selected into a context of a project (the TF-IDF branch's hit factor, issue 30):
-- written by ChunkHits, one row per project and chunk. updated_at (the database's local time of the last
-- addition) lets every replica read the rows changed since its last read. Runs on PostgreSQL and H2.
create table chunk_hits (
    project     varchar(256)  not null,
    chunk_id    varchar(1100) not null,
    hits        bigint        not null,
    updated_at  timestamp     not null,
    primary key (project, chunk_id)
);
create index chunk_hits_updated_idx on chunk_hits (updated_at);
