package io.poimen.memory.grc.edit;

import io.poimen.memory.vault.LinkResolver;
import io.poimen.memory.vault.WikiLink;
import io.poimen.memory.vault.WikiLinkParser;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Keeps links pointing where they pointed when a note moves, as Obsidian does: every link that resolved to the moved
 * note is rewritten to resolve to its new path, in the same style where that still resolves (a bare name stays a bare
 * name, a path suffix keeps its number of segments, a relative path stays relative, {@code .md} kept or left off as
 * written), else as the full vault path; the
 * heading, block and alias parts are kept as written. The moved note's own relative links are rewritten when its new
 * folder would send them elsewhere.
 */
final class LinkRewriter {
    private static final WikiLinkParser PARSER = new WikiLinkParser();

    private LinkRewriter() {
    }

    /** Notes other than {@code path} with a link that resolves to it, in path order. */
    static List<String> linkingTo(EditPlanner.State state, String path) {
        LinkResolver resolver = resolver(state);
        List<String> out = new ArrayList<>();
        for (String note : state.paths()) {
            if (!note.equals(path) && state.read(note).map(text -> PARSER.locate(note, text).stream()
                    .anyMatch(l -> path.equals(resolver.resolve(l.link()).resolvedPath()))).orElse(false)) {
                out.add(note);
            }
        }
        return out;
    }

    /** Moves {@code from} to {@code to} in {@code state} and rewrites the links; returns the rewrites. */
    static List<EditPlan.LinkRewrite> move(EditPlanner.State state, String from, String to,
                                           Predicate<String> mayRewrite) {
        LinkResolver before = resolver(state);
        String moved = state.require(from);
        List<String> linking = linkingTo(state, from);
        List<String> ownTargets = PARSER.locate(from, moved).stream()
                .map(l -> before.resolve(l.link()).resolvedPath()).toList();

        state.delete(from);
        state.put(to, moved);
        List<String> aliases = state.aliases.remove(from);
        if (aliases != null) {
            state.aliases.put(to, aliases);
        }
        LinkResolver after = resolver(state);

        List<EditPlan.LinkRewrite> rewrites = new ArrayList<>();
        for (String note : linking) {
            if (note.equals(from) || !mayRewrite.test(note)) {
                continue;
            }
            String text = state.require(note);
            List<WikiLinkParser.Located> located = PARSER.locate(note, text).stream()
                    .filter(l -> from.equals(before.resolve(l.link()).resolvedPath())).toList();
            state.put(note, rewrite(note, text, located, located.stream().map(l -> to).toList(), after, rewrites));
        }
        // the moved note's own links: each keeps its old target (a link to itself follows it)
        List<WikiLinkParser.Located> own = PARSER.locate(to, moved);
        List<String> wanted = new ArrayList<>();
        List<WikiLinkParser.Located> changed = new ArrayList<>();
        for (int i = 0; i < own.size(); i++) {
            String target = from.equals(ownTargets.get(i)) ? to : ownTargets.get(i);
            WikiLinkParser.Located l = own.get(i);
            if (target != null && !l.link().target().isEmpty()
                    && !target.equals(after.resolve(l.link()).resolvedPath())) {
                changed.add(l);
                wanted.add(target);
            }
        }
        if (!changed.isEmpty() && mayRewrite.test(to)) {
            state.put(to, rewrite(to, moved, changed, wanted, after, rewrites));
        }
        return rewrites;
    }

    private static String rewrite(String note, String text, List<WikiLinkParser.Located> links, List<String> targets,
                                  LinkResolver resolver, List<EditPlan.LinkRewrite> rewrites) {
        StringBuilder out = new StringBuilder(text);
        for (int i = links.size() - 1; i >= 0; i--) { // back to front: earlier offsets stay valid
            WikiLinkParser.Located l = links.get(i);
            String before = text.substring(l.from(), l.to());
            String after = reference(before, l.link().markdown(), targets.get(i), note, resolver);
            out.replace(l.from(), l.to(), after);
            rewrites.add(0, new EditPlan.LinkRewrite(note, display(before, l.link().markdown()),
                    display(after, l.link().markdown())));
        }
        return out.toString();
    }

    /** The reference text with its target part replaced by one that resolves to {@code target} from {@code note}. */
    static String reference(String reference, boolean markdown, String target, String note, LinkResolver resolver) {
        boolean angle = markdown && reference.startsWith("<") && reference.endsWith(">");
        String inner = angle ? reference.substring(1, reference.length() - 1) : reference;
        int cut = cut(inner, markdown);
        String written = inner.substring(0, cut).strip();
        String decoded = markdown ? WikiLinkParser.percentDecode(written) : written;
        for (String candidate : candidates(decoded, target, note)) {
            WikiLink probe = PARSER.parse(note, "[[" + candidate + "]]").stream().findFirst().orElse(null);
            if (probe != null && target.equals(resolver.resolve(probe).resolvedPath())) {
                String encoded = markdown && !angle ? encode(candidate) : candidate;
                String rewritten = encoded + inner.substring(cut);
                return angle ? "<" + rewritten + ">" : rewritten;
            }
        }
        throw new IllegalStateException("no link form resolves to " + target + " from " + note);
    }

    /** The written target ends at the anchor ({@code #}) or, in a wiki-link, the alias ({@code |} or {@code \|}). */
    private static int cut(String inner, boolean markdown) {
        int cut = inner.length();
        for (String stop : markdown ? List.of("#") : List.of("#", "\\|", "|")) {
            int at = inner.indexOf(stop);
            if (at >= 0 && at < cut) {
                cut = at;
            }
        }
        return cut;
    }

    /** The same style as written first, then the plain vault path, then with {@code .md}. */
    private static List<String> candidates(String written, String target, String note) {
        boolean md = written.toLowerCase(Locale.ROOT).endsWith(".md");
        String base = md || !target.endsWith(".md") ? target : target.substring(0, target.length() - 3);
        String styled;
        if (written.startsWith("./") || written.startsWith("../")) {
            styled = relative(folder(note), base);
        } else if (written.startsWith("/")) {
            styled = "/" + base;
        } else if (written.startsWith("shared:") && base.startsWith("shared/")) {
            styled = "shared:" + base.substring("shared/".length());
        } else {
            // a name or a path suffix: as many trailing segments of the new path as were written
            String[] segments = base.split("/");
            int keep = Math.min(segments.length, written.split("/").length);
            styled = String.join("/", List.of(segments).subList(segments.length - keep, segments.length));
        }
        return List.of(styled, base, target).stream().distinct().toList();
    }

    private static String folder(String path) {
        int slash = path.lastIndexOf('/');
        return slash < 0 ? "" : path.substring(0, slash);
    }

    private static String relative(String fromFolder, String path) {
        String[] from = fromFolder.isEmpty() ? new String[0] : fromFolder.split("/");
        String[] to = path.split("/");
        int common = 0;
        while (common < from.length && common < to.length - 1 && from[common].equals(to[common])) {
            common++;
        }
        StringBuilder out = new StringBuilder();
        for (int i = common; i < from.length; i++) {
            out.append("../");
        }
        if (out.isEmpty()) {
            out.append("./");
        }
        out.append(String.join("/", List.of(to).subList(common, to.length)));
        return out.toString();
    }

    private static LinkResolver resolver(EditPlanner.State state) {
        return LinkResolver.of(state.paths(), Map.copyOf(state.aliases));
    }

    private static String display(String reference, boolean markdown) {
        return markdown ? "(" + reference + ")" : "[[" + reference + "]]";
    }

    private static String encode(String s) {
        return s.replace("%", "%25").replace(" ", "%20").replace("(", "%28").replace(")", "%29");
    }

}
