package io.poimen.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.poimen.memory.grc.WebhookSignature;
import io.poimen.bench.eval.BeirDataset;
import io.poimen.bench.eval.BeirVault;
import io.poimen.bench.eval.LatencyStats;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.lib.PersonIdent;
import org.eclipse.jgit.transport.URIish;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.web.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.util.FileSystemUtils;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Unmatched;

/**
 * {@code bench sync --dataset DIR}: a BEIR corpus as notes in a git remote, a hub following it (webhooks, diff
 * ingest), and the time from the webhook of a one-note commit until a query finds the new text, at each vault size
 * of {@code --notes} (the remote grows between sizes, the hub keeps running).
 */
@Command(name = "sync", description = "One changed note from webhook to searchable, as the git vault grows.")
public class BenchSyncCommand implements Callable<Integer> {
    private static final String SECRET = "bench-webhook-secret";
    private static final ObjectMapper JSON = new ObjectMapper();

    @Option(names = "--dataset", required = true, description = "BEIR folder with corpus.jsonl")
    Path dataset;

    @Option(names = "--notes", defaultValue = "1000,5000,10000", split = ",",
            description = "vault sizes to measure at, growing (default ${DEFAULT-VALUE})")
    int[] sizes;

    @Option(names = "--changes", defaultValue = "5", description = "one-note commits timed per size (default 5)")
    int changes;

    @Option(names = "--policy", defaultValue = "policies/retrieval.yaml", description = "retrieval policy to use")
    Path policy;

    @Unmatched
    List<String> springArgs = new ArrayList<>();

    private final HttpClient http = HttpClient.newHttpClient();
    private String base;

    @Override
    public Integer call() throws Exception {
        if (!Files.isRegularFile(dataset.resolve("corpus.jsonl")) || !Files.isRegularFile(policy)) {
            System.err.println("error: need " + dataset.resolve("corpus.jsonl") + " and " + policy);
            return 2;
        }
        Arrays.sort(sizes);
        Path work = Files.createTempDirectory("poimen-bench-sync-");
        try {
            BeirVault.write(BeirDataset.load(dataset), work.resolve("all"), sizes[sizes.length - 1]);
            List<String> notes;
            try (Stream<Path> s = Files.walk(work.resolve("all"))) {
                notes = s.filter(Files::isRegularFile).map(p -> work.resolve("all").relativize(p).toString())
                        .sorted().toList();
            }
            Path remote = work.resolve("remote.git");
            Git.init().setBare(true).setInitialBranch("main").setDirectory(remote.toFile()).call().close();
            try (Git mate = Git.init().setInitialBranch("main").setDirectory(work.resolve("mate").toFile()).call()) {
                mate.remoteAdd().setName("origin").setUri(new URIish(remote.toString())).call();
                int have = Math.min(sizes[0], notes.size());
                String head = addNotes(mate, work, notes.subList(0, have));
                List<String> args = new ArrayList<>(List.of("--server.port=0", "--server.address=127.0.0.1",
                        "--poimen.vault.path=" + work.resolve("vault"), "--poimen.git.enabled=true",
                        "--poimen.git.remote=" + remote, "--poimen.git.poll-period=3600000",
                        "--poimen.git.initial-delay=3600000", "--poimen.webhook.secret=" + SECRET));
                args.addAll(springArgs);
                try (ConfigurableApplicationContext spring = BenchContext.start(work, policy, args, null,
                        WebApplicationType.SERVLET)) {
                    base = "http://127.0.0.1:" + ((WebServerApplicationContext) spring).getWebServer().getPort();
                    long t0 = System.nanoTime();
                    webhook(head);
                    awaitSynced(head, Duration.ofHours(2));
                    System.out.printf("first sync (whole-vault scan): %d notes in %.1f s%n", have,
                            (System.nanoTime() - t0) / 1e9);
                    for (int size : sizes) {
                        if (size > have) {
                            long g0 = System.nanoTime();
                            head = addNotes(mate, work, notes.subList(have, Math.min(size, notes.size())));
                            webhook(head);
                            awaitSynced(head, Duration.ofHours(2));
                            System.out.printf("grown to %d notes: %d added notes synced in %.1f s%n", size,
                                    size - have, (System.nanoTime() - g0) / 1e9);
                            have = Math.min(size, notes.size());
                        }
                        measure(mate, notes.subList(0, have));
                    }
                }
            }
            return 0;
        } finally {
            FileSystemUtils.deleteRecursively(work);
        }
    }

    /** {@code changes} one-note commits: webhook → a query answers the note for its new word. */
    private void measure(Git mate, List<String> notes) throws Exception {
        LatencyStats took = new LatencyStats();
        Path tree = mate.getRepository().getWorkTree().toPath();
        for (int i = 0; i < changes; i++) {
            String note = notes.get((int) ((i * 7919L + notes.size() / 2) % notes.size()));
            String word = "syncbench" + letters(UUID.randomUUID().getMostSignificantBits());
            Files.writeString(tree.resolve(note), "\nEdited for the sync bench: " + word + ".\n",
                    StandardOpenOption.APPEND);
            String head = commit(mate, List.of(note), "edit " + note);
            long t0 = System.nanoTime();
            webhook(head);
            awaitFound(word, note, Duration.ofMinutes(5));
            took.add((System.nanoTime() - t0) / 1e6);
            awaitSynced(head, Duration.ofMinutes(5));
        }
        JsonNode status = get("/memory/sync/status");
        System.out.printf("%d notes: one changed note, webhook to searchable p50 %.0f ms, max %.0f ms (%d commits;"
                        + " last sync reindexed %d note)%n", notes.size(), took.percentile(50), took.percentile(100),
                changes, status.path("notes_reindexed").asInt());
    }

    private static String letters(long bits) {
        StringBuilder s = new StringBuilder();
        for (long v = Math.abs(bits); s.length() < 10; v /= 26) {
            s.append((char) ('a' + v % 26));
        }
        return s.toString();
    }

    private static String addNotes(Git mate, Path work, List<String> notes) throws Exception {
        Path tree = mate.getRepository().getWorkTree().toPath();
        for (String n : notes) {
            Files.createDirectories(tree.resolve(n).getParent());
            Files.copy(work.resolve("all").resolve(n), tree.resolve(n));
        }
        return commit(mate, notes, "add " + notes.size() + " notes");
    }

    private static String commit(Git mate, List<String> paths, String message) throws Exception {
        var add = mate.add();
        paths.forEach(add::addFilepattern);
        add.call();
        PersonIdent who = new PersonIdent("Bench", "bench@example.org");
        String id = mate.commit().setMessage(message).setAuthor(who).setCommitter(who).call().getName();
        mate.push().setRemote("origin").add("main").call();
        return id;
    }

    /** A push webhook signed as Forgejo signs it. */
    private void webhook(String after) throws Exception {
        byte[] body = JSON.writeValueAsBytes(Map.of("ref", "refs/heads/main", "before", "0".repeat(40),
                "after", after));
        HttpRequest request = HttpRequest.newBuilder(URI.create(base + "/memory/webhooks/forgejo"))
                .header("Content-Type", "application/json").header("X-Forgejo-Event", "push")
                .header("X-Forgejo-Delivery", UUID.randomUUID().toString())
                .header("X-Forgejo-Signature", WebhookSignature.sign(SECRET, body))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build();
        HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 202) {
            throw new IllegalStateException("webhook answered " + r.statusCode() + ": " + r.body());
        }
    }

    private void awaitSynced(String commit, Duration limit) throws Exception {
        long end = System.nanoTime() + limit.toNanos();
        while (!commit.equals(get("/memory/sync/status").path("last_commit").asText(null))) {
            if (System.nanoTime() > end) {
                throw new IllegalStateException("not synced to " + commit + " within " + limit);
            }
            Thread.sleep(50);
        }
    }

    private void awaitFound(String word, String note, Duration limit) throws Exception {
        long end = System.nanoTime() + limit.toNanos();
        byte[] query = JSON.writeValueAsBytes(Map.of("project", BeirVault.PROJECT, "query", word, "top_k", 10));
        while (true) {
            HttpRequest request = HttpRequest.newBuilder(URI.create(base + "/memory/query"))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(query)).build();
            JsonNode answer = JSON.readTree(http.send(request, HttpResponse.BodyHandlers.ofString()).body());
            for (JsonNode r : answer.path("results")) {
                if (note.equals(r.path("path").asText())) {
                    return;
                }
            }
            if (System.nanoTime() > end) {
                throw new IllegalStateException(note + " not found for " + word + " within " + limit);
            }
            Thread.sleep(20);
        }
    }

    private JsonNode get(String path) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(base + path)).GET().build();
        return JSON.readTree(http.send(request, HttpResponse.BodyHandlers.ofString()).body());
    }
}
