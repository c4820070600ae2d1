package io.poimen.bench;

import io.poimen.bench.eval.BeirDataset;
import io.poimen.bench.eval.BeirVault;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code bench vault --dataset DIR --notes N --to DIR}: a vault of one note per passage, padded to N notes. */
@Command(name = "vault", description = "Write a BEIR corpus as a vault (one note per passage), padded to --notes.")
public class BenchVaultCommand implements Callable<Integer> {
    @Option(names = "--dataset", required = true, description = "BEIR folder with corpus.jsonl")
    Path dataset;

    @Option(names = "--notes", defaultValue = "10000", description = "notes to write (default ${DEFAULT-VALUE})")
    int notes;

    @Option(names = "--to", required = true, description = "folder to write the vault into (must not exist)")
    Path to;

    @Override
    public Integer call() throws Exception {
        if (!Files.isRegularFile(dataset.resolve("corpus.jsonl"))) {
            System.err.println("error: no corpus.jsonl in " + dataset);
            return 2;
        }
        if (Files.exists(to)) {
            System.err.println("error: " + to + " exists; give a new folder");
            return 2;
        }
        BeirDataset set = BeirDataset.load(dataset);
        BeirVault.write(set, to, notes);
        System.out.printf("written %d notes to %s (project %s)%n", Math.max(notes, set.corpus().size()), to,
                BeirVault.PROJECT);
        return 0;
    }
}
