package io.poimen.memory.agents;

import io.poimen.memory.api.ApiException;
import io.poimen.memory.retrieval.SearchScopes;
import io.poimen.memory.security.Access;
import io.poimen.memory.security.ReadableScope;
import io.poimen.memory.security.policy.AccessDecision;
import io.poimen.memory.security.policy.Action;
import io.poimen.memory.security.policy.Caller;
import io.poimen.memory.security.policy.PathMentions;
import io.poimen.memory.security.policy.VaultPathGuard;
import io.poimen.memory.security.policy.VaultResource;
import io.poimen.memory.vault.VaultPaths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * What one viewer may see of agent events. The local operator of the no-auth mode sees everything. Otherwise:
 * <ul>
 *   <li>the viewer's own events, with every object or string naming a vault path they may no longer read removed
 *       (a retrieved chunk goes with its heading and score);</li>
 *   <li>another caller's event only when the viewer could have seen all of it: its {@code payload.project} is a
 *       project the viewer may read, every vault path it names (as a value, a key, or in free text) is one the
 *       viewer may read and, for a {@code memory_retrieved} event, every retrieved chunk is in the viewer's own
 *       search scope of that project (reached through notes the viewer may read, as the query route builds it,
 *       {@link SearchScopes}). Such an event is shown whole but for its {@code session_id}, which only the owner
 *       sees. Any other event of another caller is not shown at all: no partial view tells that something was
 *       taken out (a score list starting below the best hit, a hidden path, a chunk reached through a denied
 *       note).</li>
 * </ul>
 * Read decisions come from the access door's read scope ({@link Access#scope}), per folder, made under the
 * policies in force: once per
 * request for the log ({@link #viewer}), again for every event on a stream ({@link #subscriber}), so a policy edit
 * applies to the next event. A viewer writes a decision to the audit log when it first makes it and whenever it
 * comes out differently from the last one it wrote.
 */
public class AgentEventAccess {
    private static final Object DROP = new Object();
    private final Access access;
    private final SearchScopes scopes;
    private final Supplier<Set<String>> vaultPaths;

    /** @param vaultPaths the vault's note paths now, to find them in free text ({@link PathMentions}) */
    public AgentEventAccess(Access access, SearchScopes scopes,
                            Supplier<Set<String>> vaultPaths) {
        this.access = access;
        this.scopes = scopes;
        this.vaultPaths = vaultPaths;
    }

    /**
     * @throws ApiException 403 (or 400 for a name that is no project folder) unless the caller may read it; the same
     *                      403 for a project with no notes, so the answer does not tell a missing project from a denied one
     */
    public void requireProject(Caller caller, String project, String traceId) {
        if (caller.anonymous()) {
            return;
        }
        if (project.isBlank() || project.contains("/")) {
            throw ApiException.badRequest("payload.project must be a project folder name, got " + project);
        }
        String folder = VaultPaths.PROJECTS + project + "/";
        access.requireRead(caller, folder, traceId);
        if (vaultPaths.get().stream().noneMatch(p -> p.startsWith(folder))) {
            throw Access.denied(Action.READ, VaultResource.project(project));
        }
    }

    /** A viewer for one request: each folder is decided once for all the events the request shows. */
    public Viewer viewer(Caller caller, String traceId) {
        return new Viewer(caller, traceId, false);
    }

    /** A viewer for a stream subscription: every event is decided again under the policies in force then. */
    public Viewer subscriber(Caller caller, String traceId) {
        return new Viewer(caller, traceId, true);
    }

    public final class Viewer {
        private final Caller caller;
        private final String traceId;
        private final boolean perEvent;
        private final Decisions request;
        private final Map<VaultResource, AccessDecision> audited = new ConcurrentHashMap<>();

        private Viewer(Caller caller, String traceId, boolean perEvent) {
            this.caller = caller;
            this.traceId = traceId;
            this.perEvent = perEvent;
            this.request = new Decisions(); // after the caller: its read scope is the caller's
        }

        public Caller caller() {
            return caller;
        }

        /** The event as this viewer may see it, or null when it is hidden from them. */
        public AgentEvent view(AgentEvent event) {
            if (caller.anonymous() || event.payload() == null && AgentIds.ownedBy(event.agentId(), caller)) {
                return event;
            }
            Decisions decisions = perEvent ? new Decisions() : request;
            try {
                return AgentIds.ownedBy(event.agentId(), caller) ? own(event, decisions)
                        : anothers(event, decisions);
            } finally {
                audit(decisions);
            }
        }

        private AgentEvent own(AgentEvent event, Decisions d) {
            Object cleaned = d.clean(event.payload());
            if (cleaned == DROP) {
                return null;
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> payload = (Map<String, Object>) cleaned;
            if (payload.get("chunks") instanceof List<?> chunks && payload.containsKey("scores")) {
                // memory_retrieved: the score list runs parallel to the chunks that are left
                payload.put("scores", chunks.stream().map(c -> c instanceof Map<?, ?> m ? m.get("score") : null)
                        .toList());
            }
            return event.withPayload(payload);
        }

        private AgentEvent anothers(AgentEvent event, Decisions d) {
            Map<String, Object> payload = event.payload();
            if (payload == null || !(payload.get("project") instanceof String project) || !d.allowsProject(project)
                    || !d.allowsAll(payload)) {
                return null;
            }
            if (AgentEventType.MEMORY_RETRIEVED.wireName().equals(event.type()) && !inScope(project, payload, d)) {
                return null;
            }
            return event.withoutSession();
        }

        /**
         * Every retrieved chunk is one this viewer's own query in {@code project} could have found (a chunk naming
         * no note of the scope, whatever it names, is not).
         */
        private boolean inScope(String project, Map<String, Object> payload, Decisions d) {
            if (!(payload.get("chunks") instanceof List<?> chunks)) {
                return true;
            }
            Set<String> scope = null;
            for (Object c : chunks) {
                Object path = c instanceof Map<?, ?> m ? m.get("path") != null ? m.get("path") : m.get("doc_id") : c;
                if (path instanceof String p) {
                    if (scope == null) {
                        scope = scopes.scope(project, d::allows, List.of()).paths();
                    }
                    if (!scope.contains(withoutAnchor(p))) {
                        return false;
                    }
                }
            }
            return true;
        }

        /** Audits the decisions this viewer has not written yet, or that came out otherwise than last written. */
        private void audit(Decisions d) {
            List<AccessDecision> changed = new ArrayList<>();
            d.scope.all().forEach(decision -> {
                if (!decision.equals(audited.put(decision.resource(), decision))) {
                    changed.add(decision);
                }
            });
            if (!changed.isEmpty()) {
                access.audit(caller, changed, traceId);
            }
        }

        /** Read decisions made at one time: for one request, or for one event on a stream. */
        private final class Decisions {
            private final ReadableScope scope = access.scope(caller);

            boolean allowsProject(String project) {
                try {
                    return decide(VaultResource.project(project));
                } catch (IllegalArgumentException e) {
                    return false;
                }
            }

            /** A path that is no safe vault path names no note the viewer may read. */
            boolean allows(String path) {
                String p = withoutAnchor(path);
                VaultResource resource;
                try {
                    VaultPathGuard.check(p);
                    resource = VaultResource.of(p);
                } catch (ApiException | IllegalArgumentException e) {
                    return false;
                }
                return decide(resource);
            }

            private boolean decide(VaultResource resource) {
                return scope.decision(resource).allowed();
            }

            /** Whether every vault path in {@code value} (values, keys, mentions in text) is readable. */
            boolean allowsAll(Object value) {
                if (value instanceof String s) {
                    return readableText(s);
                }
                if (value instanceof Map<?, ?> map) {
                    for (Map.Entry<?, ?> e : map.entrySet()) {
                        if (!readableText(String.valueOf(e.getKey())) || !allowsAll(e.getValue())) {
                            return false;
                        }
                    }
                    return true;
                }
                if (value instanceof List<?> list) {
                    return list.stream().allMatch(this::allowsAll);
                }
                return true;
            }

            private boolean readableText(String s) {
                if (namesDenied(s)) {
                    return false;
                }
                if (looksLikePath(s)) {
                    return true;
                }
                boolean[] denied = {false};
                PathMentions.withoutDenied(s, vaultPaths.get(), p -> {
                    boolean ok = allows(p);
                    denied[0] |= !ok;
                    return ok;
                });
                return !denied[0];
            }

            /**
             * {@code s} as a whole names a path the viewer may not read: a vault path as events carry it (a note's
             * exact path names that note only), or any form {@link PathMentions} reads as a note (another case,
             * {@code %2F}, a slash look-alike, a relative path, a bare name).
             */
            private boolean namesDenied(String s) {
                // a path as written is decided as it stands (also a deleted note's); another form by what it names
                if (looksLikePath(s) && PathMentions.plain(s) && !allows(s)) {
                    return true;
                }
                return !vaultPaths.get().contains(s)
                        && PathMentions.named(s, vaultPaths.get()).stream().anyMatch(p -> !allows(p));
            }

            /** The value without what names a denied path; {@link #DROP} when the value itself must go. */
            Object clean(Object value) {
                if (value instanceof String s) {
                    if (namesDenied(s)) {
                        return DROP;
                    }
                    return looksLikePath(s) ? s : PathMentions.withoutDenied(s, vaultPaths.get(), this::allows);
                }
                if (value instanceof Map<?, ?> map) {
                    Map<String, Object> out = new LinkedHashMap<>();
                    for (Map.Entry<?, ?> e : map.entrySet()) {
                        // an object naming a denied note describes that note (heading, score, text): all of it goes
                        if (e.getValue() instanceof String s && namesDenied(s)) {
                            return DROP;
                        }
                    }
                    for (Map.Entry<?, ?> e : map.entrySet()) {
                        String key = String.valueOf(e.getKey());
                        // a key naming a denied path ({"projects/p/secret.md": 0.9}) goes with its value
                        if (vaultPaths.get().contains(key) ? !allows(key) : (namesDenied(key)
                                || !key.equals(PathMentions.withoutDenied(key, vaultPaths.get(), this::allows)))) {
                            continue;
                        }
                        Object v = clean(e.getValue());
                        if (v != DROP) {
                            out.put(key, v);
                        }
                    }
                    return out;
                }
                if (value instanceof List<?> list) {
                    List<Object> out = new ArrayList<>(list.size());
                    for (Object item : list) {
                        Object v = clean(item);
                        if (v != DROP) {
                            out.add(v);
                        }
                    }
                    return out;
                }
                return value;
            }
        }
    }

    private static String withoutAnchor(String path) {
        int anchor = path.indexOf('#');
        return anchor >= 0 ? path.substring(0, anchor) : path;
    }

    /** A vault path as events carry it ({@code projects/...}, {@code shared/...}, any {@code .md} note). */
    static boolean looksLikePath(String s) {
        if (s.isEmpty() || s.length() > 1024 || s.chars().anyMatch(Character::isWhitespace)) {
            return false;
        }
        String p = withoutAnchor(s);
        return p.startsWith(VaultPaths.PROJECTS) || p.startsWith(VaultPaths.SHARED) || p.endsWith(".md");
    }
}
