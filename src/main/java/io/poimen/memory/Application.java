package io.poimen.memory;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/** The Spring configuration root. The jar's entry point is {@code cli.PoimenCli}, which starts Spring with it. */
@SpringBootApplication
public class Application {
}
