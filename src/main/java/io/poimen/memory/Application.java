package io.poimen.memory;

import io.poimen.memory.cli.PoimenCli;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import picocli.CommandLine;

@SpringBootApplication
public class Application {
    public static void main(String[] args) {
        CommandLine cli = new CommandLine(new PoimenCli(args));
        cli.setUnmatchedArgumentsAllowed(true);
        boolean serving = args.length == 0 || "serve".equals(args[0]) || args[0].startsWith("--");
        int code = cli.execute(args);
        if (!serving || code != 0) {
            System.exit(code);
        }
    }
}
