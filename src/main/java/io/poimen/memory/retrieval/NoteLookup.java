package io.poimen.memory.retrieval;

import io.poimen.memory.api.AmbiguousNameException;
import io.poimen.memory.graph.GraphService;
import io.poimen.memory.graph.LinkGraph;
import io.poimen.memory.index.NoteStore;
import io.poimen.memory.security.ReadAccess;
import io.poimen.memory.security.policy.VaultPathGuard;
import io.poimen.memory.vault.LinkResolver;
import io.poimen.memory.vault.VaultPaths;
import io.poimen.memory.vault.WikiLinkParser;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import org.springframework.stereotype.Component;

/**
 * The note a reader names, for every read (REST {@code /memory/vault/file} and {@code /memory/graph/backlinks}, MCP
 * {@code read_note} and {@code build_context}, the UI's {@code #/note/…} links). A name is one of:
 * <ul>
 *   <li>a vault path, {@code projects/poimen/debugging/pod-crashes.md};</li>
 *   <li>what a wiki-link holds, resolved by {@link LinkResolver}'s rules ({@code pod-crashes}, {@code Pod Crashes},
 *   {@code debugging/pod-crashes}, an alias from front matter, {@code shared:concepts/x}, {@code x#Heading});</li>
 *   <li>a {@code memory://} URL: {@code memory://<project>/<name>} reads {@code <name>} among the notes of that
 *   project, {@code memory://shared/<name>} among the shared notes, and anything else ({@code memory://pod-crashes},
 *   {@code memory://projects/poimen/tools/kubectl.md}) is the name after the scheme.</li>
 * </ul>
 * Only notes the caller may read take part, so a note the caller may not read is never the answer, never a
 * candidate and never what stops another note from being one: the answer is the one a vault without it would give.
 * No readable note: 404 {@code no such note: <name>}, the very answer of a missing one. Several readable notes at
 * the deciding rule (e.g. two projects' {@code index}): 409 {@code ambiguous} with their paths.
 */
@Component
public class NoteLookup {
    public static final String SCHEME = "memory://";

    private record Built(long version, LinkResolver resolver) {
    }

    private final GraphService graph;
    private final NoteStore notes;
    private final AtomicReference<Built> built = new AtomicReference<>();

    public NoteLookup(GraphService graph, NoteStore notes) {
        this.graph = graph;
        this.notes = notes;
    }

    /**
     * The vault path of the note {@code requested} names, among those {@code access} allows.
     *
     * @throws io.poimen.memory.api.ApiException 400 {@code bad_path} for a name no note could have, 404 when no
     *                                           readable note has it, 409 {@link AmbiguousNameException}
     */
    public String path(String requested, ReadAccess access) {
        boolean url = requested != null && requested.regionMatches(true, 0, SCHEME, 0, SCHEME.length());
        String name = VaultPathGuard.check(url ? requested.substring(SCHEME.length()) : requested);
        GraphService.Versioned current = graph.versioned();
        LinkGraph g = current.graph();
        Predicate<String> scope = p -> true;
        int slash = name.indexOf('/');
        if (url && slash > 0) {
            String first = name.substring(0, slash);
            String folder = first.equals("shared") ? VaultPaths.SHARED : VaultPaths.PROJECTS + first + "/";
            // a project the caller may not read is no project here: the name is then read as a plain one, as it
            // would be if the project did not exist
            if (first.equals("shared") || g.projects().contains(first) && access.allows(folder)) {
                scope = p -> p.startsWith(folder);
                name = name.substring(slash + 1);
            }
        }
        Predicate<String> readable = scope.and(access::allows);
        // the name as a path is decided first, note or not: every read leaves its audited decision, a missing
        // path's as a denied one's
        if (readable.test(name) && g.notes().contains(name)) {
            return name;
        }
        List<String> candidates = resolver(current).candidates(WikiLinkParser.target(name), readable);
        if (candidates.isEmpty()) {
            throw ReadAccess.notFound(requested);
        }
        if (candidates.size() > 1) {
            throw new AmbiguousNameException(requested, candidates);
        }
        return candidates.get(0);
    }

    /** The resolver of the current graph's notes and their aliases, built once per graph version. */
    private LinkResolver resolver(GraphService.Versioned current) {
        Built b = built.get();
        if (b == null || b.version() != current.version()) {
            Map<String, List<String>> aliases = new HashMap<>();
            notes.notes().forEach(row -> aliases.put(row.path(), row.aliases()));
            aliases.keySet().retainAll(current.graph().notes());
            b = new Built(current.version(), LinkResolver.of(current.graph().notes(), aliases));
            built.set(b);
        }
        return b.resolver();
    }
}
