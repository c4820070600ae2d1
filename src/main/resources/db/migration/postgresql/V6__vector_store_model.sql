-- Which embedding model built the vectors of chunk_vectors (PgVectorIndex): a hub configured with another model
-- re-embeds instead of searching or mixing vectors of two models. One row per vector table.
create table vector_store_model (
    store        varchar(64) primary key,
    model        varchar(128) not null,
    recorded_at  timestamp with time zone not null default current_timestamp
);
