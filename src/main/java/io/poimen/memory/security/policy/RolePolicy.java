package io.poimen.memory.security.policy;

import io.poimen.memory.config.WatchedYamlFile;
import java.nio.file.Path;
import java.util.function.Supplier;

/**
 * The current {@link RoleModel}, re-read from {@code policies/roles.yaml} when it changes. It maps claims rather
 * than granting access to resources, so a broken edit keeps the last good mapping (logged) like the other
 * {@code policies/} files; {@code _access.yaml} and {@code default.yaml} fail closed instead.
 */
public class RolePolicy implements Supplier<RoleModel> {
    private final WatchedYamlFile<RoleModel> file;

    public RolePolicy(Path policiesDir) {
        this.file = new WatchedYamlFile<>(policiesDir.resolve("roles.yaml"), RoleModel::fromYaml, RoleModel.defaults());
    }

    @Override
    public RoleModel get() {
        return file.get();
    }

    /** The file, and why its version on disk is not in force (the previous one is), or null. */
    public WatchedYamlFile<RoleModel> watched() {
        return file;
    }
}
