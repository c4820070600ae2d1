package io.poimen.memory.grc;

import java.sql.Timestamp;
import java.time.Instant;
import javax.sql.DataSource;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcTemplate;

/** The {@code webhook_deliveries} table: a delivery id is handled once; its primary key rejects the repeat. */
public class WebhookDeliveries {
    private final JdbcTemplate jdbc;

    public WebhookDeliveries(DataSource dataSource) {
        this.jdbc = new JdbcTemplate(dataSource);
    }

    /** Records the delivery; false when it was recorded before (a replay or a redelivery by Forgejo). */
    public boolean firstTime(String deliveryId, String event, Instant at) {
        try {
            jdbc.update("insert into webhook_deliveries (delivery_id, event, received_at) values (?, ?, ?)",
                    deliveryId, event, Timestamp.from(at));
            return true;
        } catch (DuplicateKeyException e) {
            return false;
        }
    }
}
