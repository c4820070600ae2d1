-- Chunk embeddings for cosine search. ${dims} is the Flyway placeholder `dims` (the embedding model's size, 384
-- for all-MiniLM-L6-v2); set it with spring.flyway.placeholders.dims.
create extension if not exists vector;

create table chunk_vectors (
    chunk_id   varchar(1100) primary key,
    path       varchar(1024) not null,
    project    varchar(256),
    embedding  vector(${dims}) not null
);
create index chunk_vectors_embedding_idx on chunk_vectors using hnsw (embedding vector_cosine_ops);
create index chunk_vectors_path_idx on chunk_vectors (path);
