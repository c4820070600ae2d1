package io.poimen.memory.cli;

import io.poimen.bench.BenchCommand;
import io.poimen.memory.config.StartRefusedException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Unmatched;

/** {@code java -jar poimen-memory.jar [serve|ingest|...]}; no sub-command means serve. */
@Command(name = "poimen-memory", mixinStandardHelpOptions = true, scope = ScopeType.INHERIT,
        version = "poimen-memory 0.1.0",
        description = "Memory hub for AI agents: vault, wiki-link graph, hybrid retrieval.",
        subcommands = {ServeCommand.class, IngestCommand.class, QueryCommand.class, BenchCommand.class})
public class PoimenCli implements Callable<Integer> {
    @Unmatched
    List<String> springArgs = new ArrayList<>();

    @Spec
    CommandSpec spec;

    public static void main(String[] args) {
        CommandLine cli = commandLine();
        int code = cli.execute(args);
        if (code != 0 || !serve(cli).serving()) {
            System.exit(code); // the server's threads keep the JVM up; every other command ends it
        }
    }

    /**
     * A start that Spring Boot refused with a {@link StartRefusedException} was reported by it in one message
     * (description and action); the command exits with 1 instead of printing the stack trace under it.
     */
    static CommandLine commandLine() {
        CommandLine cli = new CommandLine(new PoimenCli());
        cli.setExecutionExceptionHandler((e, command, parsed) -> {
            for (Throwable t = e; t != null; t = t.getCause()) {
                if (t instanceof StartRefusedException) {
                    return 1;
                }
            }
            throw e;
        });
        return cli;
    }

    static ServeCommand serve(CommandLine cli) {
        return (ServeCommand) cli.getSubcommands().get("serve").getCommand();
    }

    /** No sub-command: {@code serve} with the same arguments, which it checks. */
    @Override
    public Integer call() {
        return spec.subcommands().get("serve").execute(springArgs.toArray(String[]::new));
    }
}
