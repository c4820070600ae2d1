package io.poimen.memory;

import io.poimen.memory.cli.PoimenCli;
import org.springframework.boot.autoconfigure.SpringBootApplication;

@SpringBootApplication
public class Application {
    public static void main(String[] args) {
        PoimenCli.main(args);
    }
}
