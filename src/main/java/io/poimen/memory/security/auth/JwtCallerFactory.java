package io.poimen.memory.security.auth;

import io.poimen.memory.security.policy.Caller;
import io.poimen.memory.security.policy.RoleModel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.springframework.security.oauth2.jwt.Jwt;

/**
 * A validated token's claims → {@link Caller}. Claim names come from {@code policies/roles.yaml} and may be dotted
 * paths into nested objects ({@code realm_access.roles}); a claim may be a list or a space/comma separated string.
 * Permissions are the token's plus those its roles grant ({@link RoleModel#permissionsOf}).
 */
public class JwtCallerFactory {
    private final Supplier<RoleModel> roles;

    public JwtCallerFactory(Supplier<RoleModel> roles) {
        this.roles = roles;
    }

    public Caller from(Jwt jwt) {
        RoleModel model = roles.get();
        Map<String, Object> claims = jwt.getClaims();
        List<String> groups = strings(claim(claims, model.groupsClaim()));
        List<String> roleList = strings(claim(claims, model.rolesClaim()));
        Set<String> permissions = new LinkedHashSet<>(strings(claim(claims, model.permissionsClaim())));
        permissions.addAll(model.permissionsOf(roleList));
        String sub = jwt.getSubject();
        String name = firstString(claims, "name", "preferred_username");
        return new Caller(sub, name != null ? name : sub, firstString(claims, "email"), groups, roleList,
                List.copyOf(permissions), false);
    }

    static Object claim(Map<String, Object> claims, String path) {
        if (path == null) {
            return null;
        }
        if (claims.containsKey(path)) {
            return claims.get(path);
        }
        Object current = claims;
        for (String part : path.split("\\.")) {
            if (!(current instanceof Map<?, ?> m)) {
                return null;
            }
            current = m.get(part);
        }
        return current;
    }

    static List<String> strings(Object value) {
        if (value == null) {
            return List.of();
        }
        Collection<?> items = value instanceof Collection<?> c ? c
                : value instanceof String s ? Arrays.asList(s.split("[\\s,]+")) : List.of(value);
        List<String> out = new ArrayList<>();
        for (Object o : items) {
            if (o != null && !String.valueOf(o).isBlank()) {
                out.add(String.valueOf(o).trim());
            }
        }
        return List.copyOf(new LinkedHashSet<>(out));
    }

    private static String firstString(Map<String, Object> claims, String... names) {
        for (String n : names) {
            if (claims.get(n) instanceof String s && !s.isBlank()) {
                return s;
            }
        }
        return null;
    }
}
