package io.poimen.memory.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.NodeList;

class MasterStartBudgetFilterTest {

    @Test
    void onlyTheLeadershipTasksBudgetWarningIsDropped() {
        LoggerContext context = new LoggerContext();
        context.addTurboFilter(new MasterStartBudgetFilter());
        ListAppender<ILoggingEvent> seen = new ListAppender<>();
        seen.setContext(context);
        seen.start();
        Logger task = context.getLogger(MasterStartBudgetFilter.LOGGER);
        task.addAppender(seen);
        task.setLevel(Level.DEBUG);

        task.warn(MasterStartBudgetFilter.MESSAGE, "Leadership");
        task.warn(MasterStartBudgetFilter.MESSAGE, "route-restart");
        task.info(MasterStartBudgetFilter.MESSAGE, "Leadership");
        task.warn("something else about {}", "Leadership");
        Logger other = context.getLogger("org.apache.camel.component.master.MasterConsumer");
        other.addAppender(seen);
        other.warn(MasterStartBudgetFilter.MESSAGE, "Leadership");

        assertThat(seen.list).extracting(ILoggingEvent::getFormattedMessage).containsExactly(
                "The task route-restart does not have more budget to continue running",
                "The task Leadership does not have more budget to continue running",
                "something else about Leadership",
                "The task Leadership does not have more budget to continue running");
        assertThat(seen.list).extracting(ILoggingEvent::getLevel)
                .containsExactly(Level.WARN, Level.INFO, Level.WARN, Level.WARN);
    }

    @Test
    void theHubsLoggingConfigurationInstallsTheFilter() throws Exception {
        NodeList filters = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(Files.newInputStream(Path.of("src/main/resources/logback-spring.xml")))
                .getElementsByTagName("turboFilter");
        boolean installed = false;
        for (int i = 0; i < filters.getLength(); i++) {
            installed |= MasterStartBudgetFilter.class.getName()
                    .equals(filters.item(i).getAttributes().getNamedItem("class").getNodeValue());
        }
        assertThat(installed).as("logback-spring.xml has <turboFilter class=\"%s\"/>",
                MasterStartBudgetFilter.class.getName()).isTrue();
    }
}
