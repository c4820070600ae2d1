package io.poimen.memory.cluster;

import java.time.Duration;
import java.util.Optional;
import javax.sql.DataSource;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The {@code cluster_leases} table. Every time comparison uses the database's clock, so replicas with skewed
 * clocks still agree on when a lease has run out.
 */
public class LeaseTable {
    private static final String EXPIRY = "localtimestamp + (cast(? as bigint) * interval '0.001' second)";
    private final JdbcTemplate jdbc;

    public LeaseTable(DataSource dataSource) {
        this.jdbc = new JdbcTemplate(dataSource);
    }

    /**
     * Takes the lease of {@code namespace} for {@code holder} when it is free or has run out, or renews it when
     * {@code holder} has it. True when {@code holder} holds it for {@code lease} from now.
     */
    public boolean acquireOrRenew(String namespace, String holder, Duration lease) {
        int updated = jdbc.update("update cluster_leases set holder = ?, expires_at = " + EXPIRY
                        + ", renewed_at = localtimestamp where namespace = ? and (holder = ? or expires_at < localtimestamp)",
                holder, lease.toMillis(), namespace, holder);
        if (updated == 1) {
            return true;
        }
        try {
            return jdbc.update("insert into cluster_leases (namespace, holder, expires_at, renewed_at) values (?, ?, "
                    + EXPIRY + ", localtimestamp)", namespace, holder, lease.toMillis()) == 1;
        } catch (DuplicateKeyException e) {
            return false; // somebody holds it (or took it just now)
        }
    }

    /** Lets the lease run out now, when {@code holder} has it (a replica stopping hands over at once). */
    public void release(String namespace, String holder) {
        jdbc.update("update cluster_leases set expires_at = localtimestamp - interval '1' second"
                + " where namespace = ? and holder = ?", namespace, holder);
    }

    /** The holder of a lease that has not run out. */
    public Optional<String> holder(String namespace) {
        return jdbc.queryForList("select holder from cluster_leases where namespace = ? and expires_at >= localtimestamp",
                String.class, namespace).stream().findFirst();
    }
}
