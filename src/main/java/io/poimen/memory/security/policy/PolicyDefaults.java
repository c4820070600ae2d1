package io.poimen.memory.security.policy;

import java.util.Map;

/**
 * {@code policies/default.yaml}.
 *
 * @param sharedPublic  {@code default_access: public} (shared notes without a policy readable by every caller) or
 *                      {@code deny}
 * @param projectPublic {@code project_default: public} or {@code deny} (a project without {@code _access.yaml})
 * @param outsidePublic {@code outside_default: public} or {@code deny} (the default): notes in no project and not
 *                      under {@code shared/} (the vault root, a top-level folder such as {@code private/}, notes
 *                      directly in {@code projects/}) whose unit has no {@code _access.yaml}
 * @param writeMinRole  role needed (or outranked) for every write action
 * @param selfApproval  {@code self_approval: true}: the author of a draft may approve it (who may write every note it
 *                      touches); false (the default): someone else must
 */
public record PolicyDefaults(boolean sharedPublic, boolean projectPublic, boolean outsidePublic, String writeMinRole,
                             boolean selfApproval) {

    public static PolicyDefaults fromYaml(Map<String, Object> yaml) {
        return new PolicyDefaults(openOrDeny(yaml, "default_access", "public"),
                openOrDeny(yaml, "project_default", "deny"), openOrDeny(yaml, "outside_default", "deny"),
                Yamls.string(yaml, "write_min_role", "editor"), Yamls.bool(yaml, "self_approval", false));
    }

    private static boolean openOrDeny(Map<String, Object> yaml, String key, String fallback) {
        String v = Yamls.string(yaml, key, fallback);
        return switch (v) {
            case "public" -> true;
            case "deny" -> false;
            default -> throw new IllegalArgumentException(key + " must be public or deny, got " + v);
        };
    }
}
