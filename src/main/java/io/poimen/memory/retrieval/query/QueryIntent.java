package io.poimen.memory.retrieval.query;

import io.poimen.memory.vault.ChunkMetadata;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;

/**
 * Which chunk categories ({@link ChunkMetadata#ERROR}, {@link ChunkMetadata#SOLUTION}, {@link ChunkMetadata#TOOL})
 * a query is after, from its words. A query can have several ("how to fix ECONNREFUSED" → error and solution).
 * <ul>
 *   <li>error: an error word (error, exception, crash, fail, panic, refused, timeout, ...) or an error entity;</li>
 *   <li>solution: how, fix, solve, resolve, workaround, repair, troubleshoot, debug, ...;</li>
 *   <li>tool: a known tool or command name (kubectl, docker, git, cargo, ...) or the words command/cli.</li>
 * </ul>
 */
public class QueryIntent {
    public static final Set<String> DEFAULT_TOOLS = Set.of("kubectl", "k9s", "helm", "docker", "podman", "git",
            "cargo", "rustc", "rustup", "mvn", "maven", "gradle", "npm", "npx", "yarn", "pip", "psql", "pg_dump",
            "curl", "wget", "ssh", "scp", "rsync", "systemctl", "journalctl", "kubeadm", "k3s", "terraform",
            "ansible", "jq", "grep", "sed", "awk", "make", "java", "python", "go", "dig", "nslookup", "openssl",
            "tmux", "vim", "nix", "flux", "argocd", "forgejo", "obsidian", "command", "commands", "cli");
    private static final Set<String> ERROR_WORDS = Set.of("error", "errors", "exception", "exceptions", "crash",
            "crashes", "crashed", "crashing", "fail", "fails", "failed", "failing", "failure", "panic", "panics",
            "panicked", "refused", "timeout", "timeouts", "denied", "broken", "traceback", "stacktrace", "segfault",
            "oom", "killed", "unreachable", "invalid");
    private static final Set<String> SOLUTION_WORDS = Set.of("how", "fix", "fixes", "fixing", "fixed", "solve",
            "solved", "solving", "solution", "resolve", "resolved", "resolving", "workaround", "repair", "recover",
            "troubleshoot", "troubleshooting", "debug", "debugging", "steps");

    private final Set<String> tools;

    public QueryIntent() {
        this(DEFAULT_TOOLS);
    }

    public QueryIntent(Set<String> tools) {
        this.tools = Set.copyOf(tools);
    }

    public Set<String> categories(NormalizedQuery query) {
        Set<String> out = new LinkedHashSet<>();
        boolean error = query.entities().stream().anyMatch(QueryEntities::isErrorName);
        boolean solution = false;
        boolean tool = false;
        for (String token : query.tokens()) {
            String t = token.toLowerCase(Locale.ROOT);
            error |= ERROR_WORDS.contains(t) || t.endsWith("error") || t.endsWith("exception");
            solution |= SOLUTION_WORDS.contains(t);
            tool |= tools.contains(t);
        }
        if (error) {
            out.add(ChunkMetadata.ERROR);
        }
        if (solution) {
            out.add(ChunkMetadata.SOLUTION);
        }
        if (tool) {
            out.add(ChunkMetadata.TOOL);
        }
        return out;
    }
}
