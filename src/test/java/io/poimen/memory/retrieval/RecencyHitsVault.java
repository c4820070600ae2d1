package io.poimen.memory.retrieval;

import static io.poimen.memory.retrieval.FlowRecipesLiveReloadTest.write;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.poimen.memory.testsupport.GitCommits;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.jgit.api.Git;

/**
 * The vault of the recency-and-hits route tests, a git repository: in project {@code atlas}, two pairs of notes
 * whose chunks score exactly alike in the TF-IDF branch for a query (same heading, same words for the query, as
 * many words of their own), so that without a factor the tie rule (chunk id) orders them. {@link #OLD} was last
 * committed 400 days ago and {@link #NEW} yesterday; {@link #PLAIN} and {@link #USED} in the same commit, and
 * {@link #ONLY_USED} finds {@link #USED} alone. {@link #SECRET} (folder readable by ml-team only) also matches
 * {@link #TIE_HITS}. A weaker match of each query ({@code z-floor.md}) takes the lowest score of its list.
 */
final class RecencyHitsVault {
    static final String PROJECT = "atlas";
    static final String OLD = "projects/atlas/keys/a-old.md";
    static final String NEW = "projects/atlas/keys/b-new.md";
    static final String PLAIN = "projects/atlas/certs/c-plain.md";
    static final String USED = "projects/atlas/certs/d-used.md";
    static final String SECRET = "projects/atlas/secret/s-secret.md";
    static final String TIE_RECENCY = "rotate the vault keys";
    static final String TIE_HITS = "renew the tls certificates";
    static final String ONLY_USED = "juniper kelp larch";
    static final String ONLY_SECRET = "moss nettle oak";

    private RecencyHitsVault() {
    }

    static Path create(Path vault) {
        Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        try (Git git = Git.init().setDirectory(vault.toFile()).setInitialBranch("main").call()) {
            note(vault, "projects/atlas/_access.yaml", "project: atlas\naccess_level: group\nowner_group: platform-team\n"
                    + "allowed_groups: [platform-team]\n");
            note(vault, "projects/atlas/secret/_access.yaml", "access_level: group\nowner_group: ml-team\n"
                    + "allowed_groups: [ml-team]\n");
            note(vault, OLD, "# Key rotation\n\nRotate the vault keys every quarter: amber birch copper.\n");
            note(vault, PLAIN, "# Certificate renewal\n\nRenew the tls certificates before they expire: gorse heather "
                    + "iris.\n");
            note(vault, USED, "# Certificate renewal\n\nRenew the tls certificates before they expire: juniper kelp "
                    + "larch.\n");
            note(vault, SECRET, "# Certificate renewal\n\nRenew the tls certificates before they expire: moss nettle "
                    + "oak.\n");
            // weaker matches: the lowest score of each list, so that min-max keeps both twins above the threshold
            note(vault, "projects/atlas/keys/z-floor.md", "# Vault\n\nThe vault is sealed at night.\n");
            note(vault, "projects/atlas/certs/z-floor.md", "# Expiry\n\nCertificates expire.\n");
            commit(git, now.minus(400, ChronoUnit.DAYS));
            note(vault, NEW, "# Key rotation\n\nRotate the vault keys every quarter: dahlia elm fennel.\n");
            commit(git, now.minus(1, ChronoUnit.DAYS));
            return vault;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static void note(Path vault, String path, String text) throws IOException {
        GitCommits.write(vault, path, text);
    }

    private static void commit(Git git, Instant when) throws Exception {
        GitCommits.commitAll(git, when);
    }

    /** A query body for the TF-IDF branch alone. */
    static String tfidf(String query) {
        return "{\"project\":\"" + PROJECT + "\",\"query\":\"" + query + "\",\"search_method\":\"tfidf\"}";
    }

    /** The answer's results as path and score. */
    static List<String> ranked(JsonNode answer) {
        assertThat(answer.has("error")).as(answer.toString()).isFalse();
        List<String> out = new ArrayList<>();
        answer.path("results").forEach(r -> out.add(r.path("path").asText() + " " + r.path("score").asText()));
        return out;
    }

    /** The answer's result paths in order. */
    static List<String> paths(JsonNode answer) {
        return ranked(answer).stream().map(r -> r.substring(0, r.indexOf(' '))).toList();
    }

    /** Sets the two factors' weights in {@code policy} (half-life 30 days, half count 1). */
    static void weights(Path policy, double recency, double hits) {
        try {
            String text = Files.readString(policy).replaceAll("(?m)^  recency:\\n    weight: [0-9.]+\\n    "
                    + "half_life_days: [0-9.]+", "  recency:\n    weight: " + recency + "\n    half_life_days: 30")
                    .replaceAll("(?m)^  hits:\\n    weight: [0-9.]+\\n    half_count: [0-9.]+",
                            "  hits:\n    weight: " + hits + "\n    half_count: 1");
            assertThat(text).contains("weight: " + recency + "\n    half_life_days: 30")
                    .contains("weight: " + hits + "\n    half_count: 1");
            write(policy, text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
