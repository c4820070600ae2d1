package io.poimen.memory.security;

import io.poimen.memory.config.LastGoodYamlFiles;
import io.poimen.memory.vault.VaultPaths;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Where the access policies live: {@code _access.yaml} in any folder of {@code projects/<p>/} or {@code shared/}, and
 * the defaults {@code <policies>/default.yaml}.
 *
 * <p>The policies that govern a note are those on its folder path ({@link #lookup}): the unit's top policy
 * ({@code projects/<p>/}, {@code shared/skills/<S>/}, {@code shared/<folder>/}, or {@code shared/} for notes directly
 * under it) or, when the unit has none, the defaults; every {@code _access.yaml} in a folder between the unit's top
 * folder and the note; and, for units under {@code shared/}, {@code shared/_access.yaml} and
 * {@code shared/skills/_access.yaml} above them. Access needs every one of them to allow it, so a deeper policy can
 * only narrow what its parents allow, never widen it.
 */
public class PolicyStore {
    public static final String POLICY_FILE = "_access.yaml";

    /** One policy on a note's path; {@code folder} null when it is the defaults' (no unit policy). */
    public record Governing(String folder, AccessPolicy policy) {
    }

    /** The policies that apply to a resource, outermost first, or why access is denied without evaluating any. */
    public record Lookup(List<Governing> chain, String denyReason) {
    }

    private final Path vault;
    private final Path defaultsFile;
    private final LastGoodYamlFiles files = new LastGoodYamlFiles("access policy", "access it governs is DENIED");

    public PolicyStore(Path vault, Path policiesDir) {
        this.vault = vault;
        this.defaultsFile = policiesDir.resolve("default.yaml");
    }

    /**
     * The policy files ({@code _access.yaml} and {@code default.yaml}) whose version on disk is rejected, each with
     * its error (file, line, key) and whether its previous version is in force or access is denied.
     */
    public java.util.Map<String, String> rejected() {
        return files.rejected();
    }

    /** The defaults, or null when {@code default.yaml} exists but does not parse and there is no earlier version (then defaults deny). */
    public PolicyDefaults defaults() {
        LastGoodYamlFiles.Loaded<PolicyDefaults> d = files.load(defaultsFile, "", PolicyDefaults::fromYaml);
        if (d.unparseable()) {
            return null;
        }
        return d.present() ? d.value() : PolicyDefaults.fromYaml(java.util.Map.of());
    }

    public Lookup lookup(VaultResource resource) {
        List<Governing> chain = new ArrayList<>();
        String root = resource.unitFolder();
        for (String above : above(resource, root)) {
            LastGoodYamlFiles.Loaded<AccessPolicy> p = load(above, resource);
            if (p.unparseable()) {
                return new Lookup(List.of(), "policy_unparseable");
            }
            if (p.present()) {
                chain.add(new Governing(above, p.value()));
            }
        }
        LastGoodYamlFiles.Loaded<AccessPolicy> top = root == null ? null : load(root, resource);
        if (top != null && top.unparseable()) {
            return new Lookup(List.of(), "policy_unparseable");
        }
        if (top != null && top.present()) {
            chain.add(new Governing(root, top.value()));
        } else {
            PolicyDefaults d = defaults();
            if (d == null) {
                return new Lookup(List.of(), "policy_unparseable");
            }
            boolean open = VaultResource.PROJECT.equals(resource.type()) ? d.projectPublic() : d.sharedPublic();
            if (!open) {
                return new Lookup(List.of(), VaultResource.PROJECT.equals(resource.type()) ? "project_default_deny"
                        : "default_access_deny");
            }
            chain.add(new Governing(null, AccessPolicy.open()));
        }
        for (String below : below(root, resource.notesFolder())) {
            LastGoodYamlFiles.Loaded<AccessPolicy> p = load(below, resource);
            if (p.unparseable()) {
                return new Lookup(List.of(), "policy_unparseable");
            }
            if (p.present()) {
                chain.add(new Governing(below, p.value()));
            }
        }
        return new Lookup(List.copyOf(chain), null);
    }

    /** {@code shared/} and {@code shared/skills/} above a unit under {@code shared/}. */
    private static List<String> above(VaultResource resource, String root) {
        if (root == null || !root.startsWith(VaultPaths.SHARED)) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        out.add("shared");
        if (VaultResource.SKILL.equals(resource.type())) {
            out.add("shared/skills");
        }
        return out;
    }

    /** The folders strictly below {@code root} down to and including {@code folder}. */
    private static List<String> below(String root, String folder) {
        if (root == null || folder == null || !folder.startsWith(root + "/")) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        String rest = folder.substring(root.length() + 1);
        String at = root;
        for (String part : rest.split("/")) {
            at = at + "/" + part;
            out.add(at);
        }
        return out;
    }

    private LastGoodYamlFiles.Loaded<AccessPolicy> load(String folder, VaultResource resource) {
        // the same file can govern several units (shared/_access.yaml), and its project:/skill: key is checked
        // against the unit, so the parse is cached per unit
        return files.load(vault.resolve(folder).resolve(POLICY_FILE), resource.type() + ":" + resource.name(),
                yaml -> AccessPolicy.fromYaml(yaml, new VaultResource(resource.type(), resource.name())));
    }
}
