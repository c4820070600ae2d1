package io.poimen.memory.cli;

import io.poimen.memory.Application;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;

/** Starts the hub (HTTP API and routes). Spring properties such as --server.port=9090 pass through. */
@Command(name = "serve", description = {"Start the hub (default).", "Spring properties pass through, e.g. --server.port=9090."})
public class ServeCommand implements Runnable {
    /** {@code --dotted.key=value}: a Spring property; anything else is a mistyped option, not left for Spring. */
    private static final Pattern SPRING_PROPERTY = Pattern.compile("--[\\w-]+(\\.[\\w\\[\\]-]+)+=.*", Pattern.DOTALL);

    @Unmatched
    List<String> springArgs = new ArrayList<>();

    @Spec
    CommandSpec spec;

    private ConfigurableApplicationContext context;

    @Override
    public void run() {
        for (String arg : springArgs) {
            if (!SPRING_PROPERTY.matcher(arg).matches()) {
                throw new ParameterException(spec.commandLine(), "Unknown option or argument: '" + arg
                        + "' (Spring properties go as --name.key=value, e.g. --server.port=9090)");
            }
        }
        context = SpringApplication.run(Application.class, springArgs.toArray(String[]::new));
    }

    boolean serving() {
        return context != null && context.isActive();
    }
}
