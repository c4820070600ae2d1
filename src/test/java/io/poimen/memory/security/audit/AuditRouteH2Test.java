package io.poimen.memory.security.audit;

import java.util.Map;
import java.util.UUID;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

class AuditRouteH2Test extends AuditRouteContract {
    @Override
    DataSource database() {
        DriverManagerDataSource ds = new DriverManagerDataSource("jdbc:h2:mem:audit-" + UUID.randomUUID()
                + ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DB_CLOSE_DELAY=-1", "sa", "");
        Flyway.configure().dataSource(ds).locations("classpath:db/migration/common", "classpath:db/migration/h2")
                .placeholders(Map.of("dims", "384")).load().migrate();
        return ds;
    }
}
