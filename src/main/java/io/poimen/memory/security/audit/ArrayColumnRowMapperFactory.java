package io.poimen.memory.security.audit;

import java.sql.Array;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Arrays;
import org.apache.camel.component.sql.DefaultRowMapperFactory;
import org.springframework.jdbc.core.ColumnMapRowMapper;
import org.springframework.jdbc.core.RowMapper;

/**
 * Row mapper of camel-sql selects that reads SQL array columns ({@code rbac_audit_log.user_groups}: {@code text[]}
 * on PostgreSQL, {@code varchar array} on H2) into lists while the result set is still open; a raw
 * {@link java.sql.Array} is unreadable once the connection is back in the pool. Other columns are unchanged.
 */
public class ArrayColumnRowMapperFactory extends DefaultRowMapperFactory {
    @Override
    public RowMapper<?> newColumnRowMapper() {
        return new ColumnMapRowMapper() {
            @Override
            protected Object getColumnValue(ResultSet rs, int index) throws SQLException {
                Object value = super.getColumnValue(rs, index);
                if (value instanceof Array array) {
                    try {
                        return Arrays.asList((Object[]) array.getArray());
                    } finally {
                        array.free();
                    }
                }
                return value;
            }
        };
    }
}
