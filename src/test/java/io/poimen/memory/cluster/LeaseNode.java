package io.poimen.memory.cluster;

import com.zaxxer.hikari.HikariDataSource;
import io.poimen.memory.config.ClusterProperties;
import java.time.Duration;
import org.apache.camel.cluster.CamelClusterEventListener;
import org.apache.camel.cluster.CamelClusterView;
import org.apache.camel.impl.DefaultCamelContext;

/**
 * A JVM running only the writer election ({@link JdbcLeaseClusterService} with the hub's default lease and renew
 * periods), for {@link LeaseFailoverBench}: prints {@code LEADER <epoch ms>} when it takes the lease.
 * Arguments: JDBC URL of a migrated database.
 */
public final class LeaseNode {
    private LeaseNode() {
    }

    public static void main(String[] args) throws Exception {
        HikariDataSource db = new HikariDataSource();
        db.setJdbcUrl(args[0]);
        db.setMaximumPoolSize(2);
        ClusterProperties settings = new ClusterProperties("jdbc", "poimen-writer", null, Duration.ofSeconds(5),
                Duration.ofSeconds(1), Duration.ofMillis(250), Duration.ofMillis(250));
        JdbcLeaseClusterService service = new JdbcLeaseClusterService(new LeaseTable(db), settings);
        DefaultCamelContext camel = new DefaultCamelContext();
        camel.addService(service);
        camel.start();
        CamelClusterView view = service.getView(settings.namespace());
        view.addEventListener((CamelClusterEventListener.Leadership) (v, leader) -> {
            if (leader != null && leader.isLocal()) {
                System.out.println("LEADER " + System.currentTimeMillis());
                System.out.flush();
            }
        });
        System.out.println("STARTED " + settings.nodeId());
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }
}
