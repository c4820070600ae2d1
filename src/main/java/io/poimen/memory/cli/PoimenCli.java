package io.poimen.memory.cli;

import picocli.CommandLine.Command;

/** {@code java -jar poimen-memory.jar [serve|ingest|...]}; no sub-command means serve. */
@Command(name = "poimen-memory", mixinStandardHelpOptions = true, version = "poimen-memory 0.1.0",
        description = "Memory hub for AI agents: vault, wiki-link graph, hybrid retrieval.",
        subcommands = {ServeCommand.class, IngestCommand.class, QueryCommand.class, BenchCommand.class})
public class PoimenCli implements Runnable {
    private final String[] rawArgs;

    public PoimenCli(String[] rawArgs) {
        this.rawArgs = rawArgs;
    }

    @Override
    public void run() {
        ServeCommand.start(rawArgs);
    }
}
