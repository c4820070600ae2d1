package io.poimen.memory.agents;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.Executor;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * News of agent events from every replica: a connection of its own (outside the pool, which it would hold forever)
 * that {@code LISTEN}s on {@link AgentLogStore#CHANNEL}. When the connection fails it is opened again (after a
 * pause); a new connection listens first and then reports news, so the feed reads what was committed meanwhile.
 * An idle connection is checked with a query every {@link #WAIT_MILLIS}, and every call on it gives up after
 * {@link #NETWORK_TIMEOUT_MILLIS}, so a connection that died silently is replaced too.
 */
final class PostgresNotifications implements AgentEventFeed.Signal {
    private static final Logger log = LoggerFactory.getLogger(PostgresNotifications.class);
    private static final int WAIT_MILLIS = 5000;
    private static final int NETWORK_TIMEOUT_MILLIS = 30_000;
    private static final long RECONNECT_MILLIS = 1000;
    private static final Executor SAME_THREAD = Runnable::run;

    /** Opens a new connection to the notes database. */
    interface Connector {
        Connection open() throws SQLException;
    }

    private final Connector connector;
    private volatile Connection connection;
    private volatile boolean closed;

    PostgresNotifications(Connector connector) {
        this.connector = connector;
    }

    @Override
    public boolean await() throws InterruptedException {
        if (closed) {
            return false;
        }
        try {
            if (connection == null) {
                connection = listen();
                return true;
            }
            PGNotification[] news = connection.unwrap(PGConnection.class).getNotifications(WAIT_MILLIS);
            if (news != null && news.length > 0) {
                return true;
            }
            try (Statement alive = connection.createStatement()) {
                alive.execute("select 1");
            }
            return false;
        } catch (SQLException e) {
            if (!closed) {
                log.warn("agent events: the LISTEN connection failed, opening another in {} ms: {}",
                        RECONNECT_MILLIS, e.toString());
            }
            closeConnection();
            Thread.sleep(RECONNECT_MILLIS);
            return false;
        }
    }

    private Connection listen() throws SQLException {
        Connection c = connector.open();
        try {
            c.setAutoCommit(true);
            c.setNetworkTimeout(SAME_THREAD, NETWORK_TIMEOUT_MILLIS);
            try (Statement s = c.createStatement()) {
                s.execute("LISTEN " + AgentLogStore.CHANNEL);
            }
            return c;
        } catch (SQLException e) {
            c.close();
            throw e;
        }
    }

    @Override
    public void wake() {
        // the replica that stored the event hears of it from the database, as every other one does
    }

    @Override
    public void close() {
        closed = true;
        closeConnection();
    }

    private void closeConnection() {
        Connection c = connection;
        connection = null;
        if (c != null) {
            try {
                c.close();
            } catch (SQLException e) {
                log.debug("closing the LISTEN connection: {}", e.toString());
            }
        }
    }
}
