package io.poimen.memory.cli;

import io.poimen.memory.Application;
import java.util.List;
import org.springframework.boot.SpringApplication;
import picocli.CommandLine.Command;
import picocli.CommandLine.Unmatched;

/** Starts the hub (HTTP API and routes). Spring options such as --server.port=9090 pass through. */
@Command(name = "serve", description = "Start the hub (default).")
public class ServeCommand implements Runnable {
    @Unmatched
    List<String> springArgs = new java.util.ArrayList<>();

    @Override
    public void run() {
        start(springArgs.toArray(String[]::new));
    }

    static void start(String[] args) {
        SpringApplication.run(Application.class, args);
    }
}
