package io.poimen.memory.security;

import java.nio.file.Path;

/**
 * Where the access policies live: {@code <vault>/projects/<p>/_access.yaml}, {@code <vault>/shared/skills/<S>/_access.yaml},
 * optionally {@code <vault>/shared/<folder>/_access.yaml}, and the defaults {@code <policies>/default.yaml}.
 */
public class PolicyStore {
    public static final String POLICY_FILE = "_access.yaml";

    /** The policy that applies to a resource, or why there is none. */
    public record Lookup(AccessPolicy policy, String denyReason) {
    }

    private final Path vault;
    private final Path defaultsFile;
    private final PolicyFiles files = new PolicyFiles();

    public PolicyStore(Path vault, Path policiesDir) {
        this.vault = vault;
        this.defaultsFile = policiesDir.resolve("default.yaml");
    }

    /** The defaults, or null when {@code default.yaml} exists but does not parse (then defaults deny). */
    public PolicyDefaults defaults() {
        PolicyFiles.Loaded<PolicyDefaults> d = files.load(defaultsFile, PolicyDefaults::fromYaml);
        if (d.unparseable()) {
            return null;
        }
        return d.present() ? d.value() : PolicyDefaults.fromYaml(java.util.Map.of());
    }

    public Lookup lookup(VaultResource resource) {
        String folder = resource.policyFolder();
        if (folder != null) {
            PolicyFiles.Loaded<AccessPolicy> p = files.load(vault.resolve(folder).resolve(POLICY_FILE),
                    yaml -> AccessPolicy.fromYaml(yaml, resource));
            if (p.unparseable()) {
                return new Lookup(null, "policy_unparseable");
            }
            if (p.present()) {
                return new Lookup(p.value(), null);
            }
        }
        PolicyDefaults d = defaults();
        if (d == null) {
            return new Lookup(null, "policy_unparseable");
        }
        if (VaultResource.PROJECT.equals(resource.type())) {
            return d.projectPublic() ? new Lookup(AccessPolicy.open(), null) : new Lookup(null, "project_default_deny");
        }
        return d.sharedPublic() ? new Lookup(AccessPolicy.open(), null) : new Lookup(null, "default_access_deny");
    }
}
