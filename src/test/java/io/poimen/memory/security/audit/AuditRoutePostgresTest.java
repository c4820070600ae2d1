package io.poimen.memory.security.audit;

import io.poimen.memory.testsupport.TestPostgres;
import javax.sql.DataSource;

class AuditRoutePostgresTest extends AuditRouteContract {
    @Override
    DataSource database() {
        return TestPostgres.freshDatabase("audit_route");
    }
}
