package io.poimen.memory.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/**
 * Generated existence probes (docs/security.md, "What a refused caller is told"): each probe is a pair of requests
 * that differ only in a name, one naming something that exists (a path under an existing note, denied or readable;
 * a note, an attachment or a project the caller may not read) and one naming something that does not (a path under a
 * note that does not exist, a missing attachment, a project that does not exist), at the note, attachment,
 * access-check, listing, reachability, query and agent-event surfaces, and names of denied notes
 * ({@link #withDeniedNames}) against a name nothing has. Both answers must be the same but for the name: status,
 * content type and body (the error code and the message's wording included), and never a 5xx.
 */
public final class ExistenceProbes {
    /** What a path under a note may continue with. */
    static final String[] UNDER = {"/x.md", "/_access.yaml", "/a/b.md", "/x.md#heading", "/_access.yml",
            "/sub/deeper/n.md"};
    /** What a path under an attachment may continue with (served extensions, so the type check lets it through). */
    static final String[] UNDER_ATTACHMENT = {"", "", "/x.png", "/a/b.pdf", "/_access.yaml.svg"};

    private final Random random;
    private final int port;
    private final List<String> tokens;
    private final List<String> notes;
    private final List<String> deniedNotes;
    private final List<String> deniedProjects;
    private final List<String> deniedAttachments;
    private final List<String> forbidden;
    private List<String> deniedNames = List.of();
    public final Map<String, Integer> statuses = new TreeMap<>();
    /** Requests that named a denied note by a name ({@link #withDeniedNames}) or its missing twin. */
    public int nameRequests;

    /**
     * @param tokens         bearer tokens to ask as (an empty string: no Authorization, the no-auth hub)
     * @param notes          existing notes to probe under
     * @param deniedNotes    existing notes every token's caller may not read, probed themselves (empty: none)
     * @param deniedProjects projects that exist and every token's caller may not read (empty: none)
     * @param forbidden      texts no answer may contain
     */
    public ExistenceProbes(long seed, int port, List<String> tokens, List<String> notes, List<String> deniedNotes,
                           List<String> deniedProjects, List<String> forbidden) {
        this(seed, port, tokens, notes, deniedNotes, deniedProjects, List.of(), forbidden);
    }

    /**
     * @param deniedAttachments existing attachments (images, PDFs) every token's caller may not read, probed
     *                          themselves and under, against a missing twin at {@code GET /memory/vault/attachment}
     */
    public ExistenceProbes(long seed, int port, List<String> tokens, List<String> notes, List<String> deniedNotes,
                           List<String> deniedProjects, List<String> deniedAttachments, List<String> forbidden) {
        this.deniedAttachments = deniedAttachments;
        this.random = new Random(seed);
        this.port = port;
        this.tokens = tokens;
        this.notes = notes;
        this.deniedNotes = deniedNotes;
        this.deniedProjects = deniedProjects;
        this.forbidden = forbidden;
    }

    /**
     * Also probes names of notes every token's caller may not read (a wiki-link name, an alias, a path tail, a
     * {@code memory://} URL; a {@code #heading} kept at the end) against the same name with {@code -nope} added, at
     * the note surfaces that take names.
     */
    public ExistenceProbes withDeniedNames(List<String> names) {
        this.deniedNames = names;
        return this;
    }

    /** Sends {@code pairs} generated probe pairs and checks each; returns the number of requests sent. */
    public int run(int pairs) throws IOException {
        int sent = 0;
        for (int i = 0; i < pairs; i++) {
            String token = tokens.get(random.nextInt(tokens.size()));
            boolean project = !deniedProjects.isEmpty() && random.nextInt(3) == 0;
            boolean attachment = !project && !deniedAttachments.isEmpty() && random.nextInt(3) == 0;
            boolean name = !project && !attachment && !deniedNames.isEmpty() && random.nextInt(3) == 0;
            String existing;
            String missing;
            if (name) {
                existing = deniedNames.get(random.nextInt(deniedNames.size()));
                int hash = existing.indexOf('#');
                missing = hash < 0 ? existing + "-nope" : existing.substring(0, hash) + "-nope" + existing.substring(hash);
            } else if (attachment) {
                String file = deniedAttachments.get(random.nextInt(deniedAttachments.size()));
                String under = UNDER_ATTACHMENT[random.nextInt(UNDER_ATTACHMENT.length)];
                int dot = file.lastIndexOf('.');
                existing = file + under;
                missing = file.substring(0, dot) + "-nope" + file.substring(dot) + under;
            } else if (project) {
                existing = deniedProjects.get(random.nextInt(deniedProjects.size()));
                missing = "no-such-project-" + random.nextInt(1000);
            } else {
                // the note itself only when the caller may not read it, else a path under it
                boolean itself = !deniedNotes.isEmpty() && random.nextInt(4) == 0;
                String note = itself ? deniedNotes.get(random.nextInt(deniedNotes.size()))
                        : notes.get(random.nextInt(notes.size()));
                String under = itself ? "" : UNDER[random.nextInt(UNDER.length)];
                existing = note + under;
                missing = note.replace(".md", "-nope.md") + under;
            }
            String[] surface = attachment ? new String[] {"GET", "/memory/vault/attachment", "path"}
                    : project ? projectSurface() : name ? nameSurface() : pathSurface();
            HostileRequests.Answer a = HostileRequests.exchange(port, request(surface, existing, token));
            HostileRequests.Answer b = HostileRequests.exchange(port, request(surface, missing, token));
            String what = surface[0] + " " + surface[1] + " " + existing + " / " + missing + " → " + a.status() + ": "
                    + a.text() + "\n vs " + b.status() + ": " + b.text();
            assertThat(a.status()).as(what).isLessThan(500).isEqualTo(b.status());
            assertThat(a.headers().get("content-type")).as(what).isEqualTo(b.headers().get("content-type"));
            assertThat(a.text().replace(existing, "N")).as(what).isEqualTo(b.text().replace(missing, "N"));
            for (String f : forbidden) {
                assertThat(a.text()).as(what).doesNotContain(f);
            }
            statuses.merge(surface[0] + " " + surface[1] + " " + a.status(), 2, Integer::sum);
            nameRequests += name ? 2 : 0;
            sent += 2;
        }
        return sent;
    }

    /** {method, path, where the name goes: a query parameter name or a JSON body template with %s}. */
    private String[] pathSurface() {
        return switch (random.nextInt(3)) {
            case 0 -> new String[] {"GET", "/memory/vault/file", "path"};
            case 1 -> new String[] {"GET", "/memory/graph/backlinks", "path"};
            default -> new String[] {"GET", "/memory/access/check", "path"};
        };
    }

    private String[] nameSurface() {
        return random.nextBoolean() ? new String[] {"GET", "/memory/vault/file", "path"}
                : new String[] {"GET", "/memory/graph/backlinks", "path"};
    }

    private String[] projectSurface() {
        return switch (random.nextInt(4)) {
            case 0 -> new String[] {"GET", "/memory/vault", "project"};
            case 1 -> new String[] {"GET", "/memory/graph/reachable", "project"};
            case 2 -> new String[] {"POST", "/memory/query", "{\"project\":\"%s\",\"query\":\"pods\"}"};
            default -> new String[] {"POST", "/memory/agents/events",
                    "{\"agent_id\":\"probe\",\"type\":\"agent_decision\",\"payload\":{\"project\":\"%s\"}}"};
        };
    }

    private byte[] request(String[] surface, String name, String token) {
        String target = surface[1];
        String body = null;
        if (surface[2].startsWith("{")) {
            body = surface[2].formatted(name);
        } else {
            target += "?" + surface[2] + "=" + URLEncoder.encode(name, StandardCharsets.UTF_8);
        }
        StringBuilder head = new StringBuilder(surface[0]).append(' ').append(target).append(" HTTP/1.1\r\n")
                .append("Host: 127.0.0.1:").append(port).append("\r\n");
        if (!token.isEmpty()) {
            head.append("Authorization: Bearer ").append(token).append("\r\n");
        }
        byte[] b = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
        if (body != null) {
            head.append("Content-Type: application/json\r\nContent-Length: ").append(b.length).append("\r\n");
        }
        head.append("Connection: close\r\n\r\n");
        byte[] h = head.toString().getBytes(StandardCharsets.ISO_8859_1);
        byte[] all = new byte[h.length + b.length];
        System.arraycopy(h, 0, all, 0, h.length);
        System.arraycopy(b, 0, all, h.length, b.length);
        return all;
    }
}
