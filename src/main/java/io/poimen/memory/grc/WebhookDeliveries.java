package io.poimen.memory.grc;

import java.sql.Timestamp;
import java.time.Clock;
import javax.sql.DataSource;
import org.apache.camel.Exchange;
import org.apache.camel.spi.IdempotentRepository;
import org.apache.camel.support.service.ServiceSupport;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The {@code webhook_deliveries} table as the idempotent repository of the webhook route: a delivery id is handled
 * once by whichever replica gets it first, because the table's primary key rejects the repeat. A delivery whose
 * handling fails is removed again (the idempotent consumer's remove-on-failure), so Forgejo's redelivery is handled.
 */
public class WebhookDeliveries extends ServiceSupport implements IdempotentRepository {
    private final JdbcTemplate jdbc;
    private final Clock clock;

    public WebhookDeliveries(DataSource dataSource, Clock clock) {
        this.jdbc = new JdbcTemplate(dataSource);
        this.clock = clock;
    }

    /** Records the delivery with its event; false when it was recorded before (a replay or a redelivery). */
    @Override
    public boolean add(Exchange exchange, String deliveryId) {
        return insert(deliveryId, exchange.getProperty(ForgejoWebhooks.EVENT, String.class));
    }

    @Override
    public boolean add(String deliveryId) {
        return insert(deliveryId, null);
    }

    private boolean insert(String deliveryId, String event) {
        try {
            jdbc.update("insert into webhook_deliveries (delivery_id, event, received_at) values (?, ?, ?)",
                    deliveryId, event, Timestamp.from(clock.instant()));
            return true;
        } catch (DuplicateKeyException e) {
            return false;
        }
    }

    @Override
    public boolean contains(String deliveryId) {
        Integer n = jdbc.queryForObject("select count(*) from webhook_deliveries where delivery_id = ?",
                Integer.class, deliveryId);
        return n != null && n > 0;
    }

    @Override
    public boolean remove(String deliveryId) {
        return jdbc.update("delete from webhook_deliveries where delivery_id = ?", deliveryId) > 0;
    }

    @Override
    public boolean confirm(String deliveryId) {
        return true;
    }

    /** Not used by the route; deliveries are history and are never cleared in bulk. */
    @Override
    public void clear() {
        throw new UnsupportedOperationException("webhook deliveries are not cleared");
    }
}
