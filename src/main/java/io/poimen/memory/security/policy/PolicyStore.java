package io.poimen.memory.security.policy;

import io.poimen.memory.config.LastGoodYamlFiles;
import io.poimen.memory.vault.PolicyFileNames;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Where the access policies live: {@code _access.yaml} in any folder of the vault, and the defaults
 * {@code <policies>/default.yaml}.
 *
 * <p>The policies that govern a note are those on its folder path ({@link #lookup}): the unit's top policy
 * ({@code projects/<p>/}, {@code shared/skills/<S>/}, {@code shared/<folder>/}, {@code shared/} for notes directly
 * under it, another top-level folder such as {@code private/} (also {@code projects/} for notes directly in it), or
 * the vault root for notes directly in it) or, when the unit has none, the defaults ({@code project_default},
 * {@code default_access}, {@code outside_default}); every {@code _access.yaml} in a folder between the unit's top
 * folder and the note; and above the unit, {@code projects/_access.yaml} for a project and {@code shared/_access.yaml}
 * (and {@code shared/skills/_access.yaml} for a skill) for units under {@code shared/}. Access needs every one of
 * them to allow it, so a deeper policy can only narrow what its parents allow, never widen it. A near-miss of the
 * file name next to where a policy belongs ({@link PolicyFileNames}) rejects that folder's policy like a broken file.
 */
public class PolicyStore {
    public static final String POLICY_FILE = PolicyFileNames.POLICY_FILE;

    /** One policy on a note's path; {@code folder} null when it is the defaults' (no unit policy). */
    public record Governing(String folder, AccessPolicy policy) {
    }

    /** The policies that apply to a resource, outermost first, or why access is denied without evaluating any. */
    public record Lookup(List<Governing> chain, String denyReason) {
    }

    private final Path vault;
    private final Path defaultsFile;
    private final LastGoodYamlFiles files = new LastGoodYamlFiles("access policy", "access it governs is DENIED");
    private final NearMissPolicyFiles nearMisses = new NearMissPolicyFiles(files::culpritGone);

    public PolicyStore(Path vault, Path policiesDir) {
        this.vault = vault;
        this.defaultsFile = policiesDir.resolve("default.yaml");
    }

    /**
     * The policy files ({@code _access.yaml}, its near-misses, and {@code default.yaml}) that are rejected, each with
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
        String root = resource.unitFolder();
        if (root == null) {
            return new Lookup(List.of(), "policy_unparseable");
        }
        List<Governing> chain = new ArrayList<>();
        for (String above : above(resource)) {
            LastGoodYamlFiles.Loaded<AccessPolicy> p = load(above, resource);
            if (p.unparseable()) {
                return new Lookup(List.of(), "policy_unparseable");
            }
            if (p.present()) {
                chain.add(new Governing(above, p.value()));
            }
        }
        LastGoodYamlFiles.Loaded<AccessPolicy> top = load(root, resource);
        if (top.unparseable()) {
            return new Lookup(List.of(), "policy_unparseable");
        }
        if (top.present()) {
            chain.add(new Governing(root, top.value()));
        } else {
            PolicyDefaults d = defaults();
            if (d == null) {
                return new Lookup(List.of(), "policy_unparseable");
            }
            String denied = withoutPolicy(resource.type(), d);
            if (denied != null) {
                return new Lookup(List.of(), denied);
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

    /** The deny reason of a unit without its own top policy, or null when its default is public. */
    private static String withoutPolicy(String type, PolicyDefaults d) {
        return switch (type) {
            case VaultResource.PROJECT -> d.projectPublic() ? null : "project_default_deny";
            case VaultResource.FOLDER, VaultResource.ROOT -> d.outsidePublic() ? null : "outside_default_deny";
            default -> d.sharedPublic() ? null : "default_access_deny";
        };
    }

    /** {@code projects/} above a project; {@code shared/} (and {@code shared/skills/}) above a unit under shared/. */
    private static List<String> above(VaultResource resource) {
        return switch (resource.type()) {
            case VaultResource.PROJECT -> List.of("projects");
            case VaultResource.SKILL -> List.of("shared", "shared/skills");
            case VaultResource.SHARED -> resource.name().isEmpty() ? List.of() : List.of("shared");
            default -> List.of();
        };
    }

    /** The folders strictly below {@code root} down to and including {@code folder}. */
    private static List<String> below(String root, String folder) {
        if (folder == null || root.isEmpty() || !folder.startsWith(root + "/")) {
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
        Path dir = folder.isEmpty() ? vault : vault.resolve(folder);
        Path file = dir.resolve(POLICY_FILE);
        // the same file can govern several units (shared/_access.yaml), and its project:/skill: key is checked
        // against the unit, so the parse is cached per unit
        String key = resource.type() + ":" + resource.name();
        VaultResource unit = new VaultResource(resource.type(), resource.name());
        List<Path> nearMiss = nearMisses.in(dir);
        if (!nearMiss.isEmpty()) {
            return files.loadBeside(file, key, nearMiss, culprit -> culprit + ": a near-miss of the policy file name "
                    + POLICY_FILE + " (rename or remove it)", yaml -> AccessPolicy.fromYaml(yaml, unit));
        }
        return files.load(file, key, yaml -> AccessPolicy.fromYaml(yaml, unit));
    }
}
