package io.poimen.memory.grc;

import static org.assertj.core.api.Assertions.assertThat;

import io.poimen.memory.config.GitProperties;
import io.poimen.memory.index.ingest.IngestReport;
import io.poimen.memory.index.ingest.VaultChanges;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.camel.Exchange;
import org.apache.camel.impl.DefaultCamelContext;
import org.apache.camel.support.DefaultExchange;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.api.PullResult;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.PersonIdent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a sync hands the ingest, on real git repositories: the whole vault the first time, the pull's diff from
 * the indexed commit after that, and the whole vault again when that diff cannot be computed.
 */
class VaultSyncDiffTest {
    @TempDir Path dir;

    @Test
    void firstSyncScansThenDiffsFromTheIndexedCommitAndScansWhenTheDiffFails() throws Exception {
        Path remote = dir.resolve("remote.git");
        Git.init().setBare(true).setInitialBranch("main").setDirectory(remote.toFile()).call().close();
        Path other = dir.resolve("other");
        Git mate = Git.init().setInitialBranch("main").setDirectory(other.toFile()).call();
        mate.remoteAdd().setName("origin").setUri(new org.eclipse.jgit.transport.URIish(remote.toString())).call();
        commit(mate, "a.md", "one");
        GitProperties props = new GitProperties(true, remote.toString(), "main", Duration.ofSeconds(30),
                Duration.ofSeconds(5), "poimen", null, null, "users.noreply.poimen");
        VaultGit vault = new VaultGit(dir.resolve("vault"), props, null);
        vault.prepare();
        VaultSync sync = new VaultSync(vault, props, null, null, Clock.systemUTC(), java.util.Set::of);

        commit(mate, "b.md", "two");
        Object first = pullAndPlan(sync, vault);
        assertThat(first).as("first sync since start").isEqualTo(vault.root());

        commit(mate, "a.md", "one, edited");
        Files.move(other.resolve("b.md"), other.resolve("c.md"));
        mate.rm().addFilepattern("b.md").call();
        mate.add().addFilepattern("c.md").call();
        commit(mate, "d.md", "four");
        Object second = pullAndPlan(sync, vault);
        assertThat(second).isInstanceOf(VaultChanges.class);
        VaultChanges diff = (VaultChanges) second;
        assertThat(diff.upserted()).containsExactlyInAnyOrder("a.md", "c.md", "d.md");
        assertThat(diff.deleted()).containsExactly("b.md");

        // the indexed commit is not in the repository (history rewritten and collected): scan instead
        sync.ingested(report(), ObjectId.fromString("1234567890123456789012345678901234567890"), List.of());
        commit(mate, "e.md", "five");
        mate.close();
        assertThat(pullAndPlan(sync, vault)).isEqualTo(vault.root());
    }

    /** One sync as the route runs it: prepare, pull, pulled; then the ingest is recorded as done. */
    private static Object pullAndPlan(VaultSync sync, VaultGit vault) throws Exception {
        Exchange exchange = new DefaultExchange(new DefaultCamelContext());
        sync.prepare(exchange);
        PullResult pulled;
        try (Git g = Git.open(vault.root().toFile())) {
            pulled = g.pull().setRemote("origin").call();
        }
        Object forIngest = sync.pulled(pulled, exchange.getProperty(VaultSync.OLD_HEAD, ObjectId.class), exchange);
        sync.ingested(report(), exchange.getProperty(VaultSync.NEW_HEAD, ObjectId.class), List.of());
        return forIngest;
    }

    private static IngestReport report() {
        return new IngestReport(0, 0, 0, 0, 0, 0, List.of(), List.of(), 0, Map.of());
    }

    private static void commit(Git git, String path, String content) throws Exception {
        Path file = git.getRepository().getWorkTree().toPath().resolve(path);
        Files.writeString(file, content + "\n");
        git.add().addFilepattern(path).call();
        PersonIdent mate = new PersonIdent("Mate", "mate@example.org");
        git.commit().setMessage("edit " + path).setAuthor(mate).setCommitter(mate).call();
        git.push().setRemote("origin").add("main").call();
    }
}
