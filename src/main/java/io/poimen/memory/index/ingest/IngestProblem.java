package io.poimen.memory.index.ingest;

/** A file that could not be (fully) indexed, and why. The previously indexed version, if any, is kept. */
public record IngestProblem(String path, String reason) {
}
