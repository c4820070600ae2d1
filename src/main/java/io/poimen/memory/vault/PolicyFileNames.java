package io.poimen.memory.vault;

import java.text.Normalizer;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The name of a folder's access policy, {@value #POLICY_FILE}, and its near-misses: names an operator may have
 * meant as the policy but that the hub would otherwise ignore, leaving the folder open. A near-miss is a file name
 * other than {@value #POLICY_FILE} that, after NFKC normalisation and lower-casing, is {@code _access.yaml} or
 * {@code _access.yml} (any case: {@code _ACCESS.yaml}, {@code _Access.YAML}), the same without the underscore
 * ({@code access.yaml}, {@code access.yml}), or {@code _access.yaml} / {@code _access.yml} followed by a suffix
 * ({@code _access.yaml.bak}, {@code _access.yml.orig}, {@code _access.yaml~}, {@code _access.yaml.md}). A near-miss
 * is never a note; the policy store rejects its folder's policy like a broken one while it is there.
 */
public final class PolicyFileNames {
    public static final String POLICY_FILE = "_access.yaml";
    private static final Pattern NEAR_MISS = Pattern.compile("_?access\\.ya?ml|_access\\.ya?ml(\\..+|~)");

    private PolicyFileNames() {
    }

    /** {@code name} (a file name, no folder) is a near-miss of {@value #POLICY_FILE}. */
    public static boolean nearMiss(String name) {
        return !POLICY_FILE.equals(name)
                && NEAR_MISS.matcher(Normalizer.normalize(name, Normalizer.Form.NFKC).toLowerCase(Locale.ROOT))
                .matches();
    }

    /** {@code name} is the policy file or a near-miss of it: not a note, whatever its extension. */
    public static boolean policyName(String name) {
        return POLICY_FILE.equals(name) || nearMiss(name);
    }
}
