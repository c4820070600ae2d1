-- Which embedding model built the vectors of chunk_vectors (PgVectorIndex): a hub configured with another model
-- re-embeds instead of searching or mixing vectors of two models. One row per vector table; complete is false
-- while a re-embedding runs (the table is then not searched). Versioned after V14 so that databases already
-- migrated to V14 take it in order.
create table vector_store_model (
    store        varchar(64) primary key,
    model        varchar(128) not null,
    complete     boolean not null default true,
    recorded_at  timestamp with time zone not null default current_timestamp
);
