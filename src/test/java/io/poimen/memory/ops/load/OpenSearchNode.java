package io.poimen.memory.ops.load;

import io.poimen.memory.testsupport.TestOpenSearch;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A real single OpenSearch node for a local prod-profile load run (no OpenSearch server is installed here):
 * writes its URL to the file given as the first argument and runs until the process is killed, which is the
 * "OpenSearch node stopped" fault of the load harness.
 */
public final class OpenSearchNode {
    private OpenSearchNode() {
    }

    public static void main(String[] args) throws Exception {
        String url = TestOpenSearch.url();
        Files.writeString(Path.of(args[0]), url);
        System.out.println("OpenSearch node at " + url);
        Thread.currentThread().join();
    }
}
