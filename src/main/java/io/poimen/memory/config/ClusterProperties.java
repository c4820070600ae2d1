package io.poimen.memory.config;

import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.time.Duration;
import java.util.UUID;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings under {@code poimen.cluster.*}: which cluster service elects the writer, its namespace, and this
 * replica's id (host, pid and a random part unless set).
 *
 * @param service {@code jdbc} (a lease row in the notes database; works for processes anywhere that share it)
 *                or {@code kubernetes} (camel-kubernetes' Lease service)
 * @param lease   how long a leader holds the lease without renewing it: a dead leader is replaced after this
 * @param renew   how often the leader renews and the others try to take the lease
 * @param namespace the lease (camel-master namespace) the writer-only routes run under
 * @param nodeId  this replica's id in the lease and the change log (none: host-pid-random)
 * @param followPeriod   how often every replica reads the change log
 * @param requestsPeriod how often the writer reads the request table (syncs and reindexes asked for anywhere)
 */
public record ClusterProperties(@DefaultValue("jdbc") String service, @DefaultValue("poimen-writer") String namespace,
                                String nodeId, @DefaultValue("5s") Duration lease, @DefaultValue("1s") Duration renew,
                                @DefaultValue("250ms") Duration followPeriod,
                                @DefaultValue("250ms") Duration requestsPeriod) {

    public ClusterProperties {
        nodeId = nodeId != null && !nodeId.isBlank() ? nodeId : defaultNodeId();
        if (renew.compareTo(lease.dividedBy(2)) > 0) {
            throw new IllegalArgumentException("poimen.cluster.renew (" + renew + ") must be at most half of "
                    + "poimen.cluster.lease (" + lease + "), or a slow renewal loses the lease");
        }
    }

    private static String defaultNodeId() {
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (Exception e) {
            host = "host";
        }
        String pid = ManagementFactory.getRuntimeMXBean().getName().split("@")[0];
        return host + "-" + pid + "-" + UUID.randomUUID().toString().substring(0, 8);
    }
}
