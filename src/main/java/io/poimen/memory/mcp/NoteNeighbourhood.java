package io.poimen.memory.mcp;

import io.poimen.memory.graph.GraphService;
import io.poimen.memory.graph.LinkGraph;
import io.poimen.memory.retrieval.NoteLookup;
import io.poimen.memory.index.NoteStore;
import io.poimen.memory.security.Access;
import io.poimen.memory.security.policy.Caller;
import io.poimen.memory.security.auth.CallerResolver;
import io.poimen.memory.security.auth.ExchangeSecurity;
import io.poimen.memory.vault.Chunk;
import io.poimen.memory.api.ApiException;
import io.poimen.memory.security.ReadAccess;
import io.poimen.memory.vault.NoteVersion;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;
import org.apache.camel.Exchange;
import org.apache.camel.Header;

/**
 * {@code build_context}: a note plus its wiki-link neighbourhood (notes it links to and notes linking to it, up
 * to two hops), ranked and cut to a token budget. Only notes the caller may read take part; the others are left
 * out without a word, as in listings, and a starting note the caller may not read is a missing one (404).
 *
 * <p>Rank: the note itself, then by hops (1 before 2), then by the number of links joining the neighbour to the
 * notes already nearer (both directions), then by path. Chunks go in whole, in reading order per note; a chunk
 * that does not fit in what is left is skipped and smaller later ones are still tried, as in query selection.
 */
public class NoteNeighbourhood {
    static final int DEFAULT_BUDGET = 2000;
    static final int MAX_BUDGET = 200_000;

    public record Part(String chunkId, String heading, int tokens, String text) {
    }

    /** @param version the note's version (the file as served now), for an edit made from what was read */
    public record Note(String path, String title, int hops, String version, List<Part> chunks) {
    }

    public record Context(String path, int budgetTokens, int tokensUsed, List<Note> notes, List<String> leftOut) {
    }

    private final GraphService graph;
    private final NoteStore notes;
    private final CallerResolver callers;
    private final Access checks;
    private final Path vault;
    private final NoteLookup names;

    public NoteNeighbourhood(GraphService graph, NoteStore notes, CallerResolver callers, Access checks,
                             Path vault, NoteLookup names) {
        this.names = names;
        this.graph = graph;
        this.notes = notes;
        this.callers = callers;
        this.checks = checks;
        this.vault = vault.toAbsolutePath().normalize();
    }

    /** @param name a path, a wiki-link name or alias, or a {@code memory://} URL ({@link NoteLookup}) */
    public Context build(Exchange exchange, @Header("path") String name, @Header("budget_tokens") Integer budget,
                         @Header("hops") Integer hops) {
        int limit = budget == null ? DEFAULT_BUDGET : budget;
        if (limit < 1 || limit > MAX_BUDGET) {
            throw ApiException.unprocessable("budget_tokens must be between 1 and " + MAX_BUDGET + ", got " + limit);
        }
        int depth = hops == null ? 1 : hops;
        if (depth < 0 || depth > 2) {
            throw ApiException.unprocessable("hops must be 0, 1 or 2, got " + depth);
        }
        Caller caller = callers.caller(exchange);
        String trace = ExchangeSecurity.traceId(exchange);
        // a note the caller may not read answers exactly as a missing one (no existence oracle)
        ReadAccess access = checks.reads(caller, trace);
        String path = names.path(name, access);
        if (notes.note(path).isEmpty()) {
            throw ReadAccess.notFound(name);
        }

        LinkGraph g = graph.current();
        Map<String, Integer> hopOf = new LinkedHashMap<>();
        hopOf.put(path, 0);
        List<String> frontier = List.of(path);
        for (int h = 1; h <= depth; h++) {
            List<String> next = new ArrayList<>();
            for (String p : frontier) {
                for (String n : neighbours(g, p)) {
                    if (!hopOf.containsKey(n) && access.allows(n)) {
                        hopOf.put(n, h);
                        next.add(n);
                    }
                }
            }
            frontier = next;
        }
        Map<String, Integer> ties = new HashMap<>();
        hopOf.forEach((n, h) -> ties.put(n, (int) neighbours(g, n).stream()
                .filter(m -> hopOf.containsKey(m) && hopOf.get(m) < h).count()));
        List<String> ranked = hopOf.keySet().stream()
                .sorted(Comparator.comparingInt((String n) -> hopOf.get(n))
                        .thenComparing(n -> -ties.get(n))
                        .thenComparing(Comparator.naturalOrder()))
                .toList();

        List<Note> out = new ArrayList<>();
        List<String> leftOut = new ArrayList<>();
        int used = 0;
        for (String n : ranked) {
            NoteStore.NoteRow row = notes.note(n).orElse(null);
            if (row == null) {
                continue;
            }
            List<String> ids = IntStream.range(0, row.chunkCount()).mapToObj(i -> n + "#" + i).toList();
            List<Chunk> chunks = new ArrayList<>(notes.chunks(ids));
            chunks.sort(Comparator.comparingInt(Chunk::ordinal));
            List<Part> parts = new ArrayList<>();
            for (Chunk c : chunks) {
                if (used + c.tokens() <= limit) {
                    parts.add(new Part(c.id(), c.heading(), c.tokens(), c.text()));
                    used += c.tokens();
                }
            }
            if (parts.isEmpty()) {
                leftOut.add(n);
            } else {
                out.add(new Note(n, row.title(), hopOf.get(n), version(n), parts));
            }
        }
        return new Context(path, limit, used, out, leftOut);
    }

    private String version(String path) {
        Path file = vault.resolve(path).normalize();
        try {
            return file.startsWith(vault) ? NoteVersion.of(Files.readAllBytes(file)) : null;
        } catch (IOException e) {
            return null;
        }
    }

    private static Set<String> neighbours(LinkGraph g, String path) {
        Set<String> all = new java.util.TreeSet<>(g.outgoing(path));
        all.addAll(g.backlinks(path));
        all.remove(path);
        return all;
    }
}
