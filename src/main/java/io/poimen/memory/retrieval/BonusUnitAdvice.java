package io.poimen.memory.retrieval;

import io.poimen.memory.index.EmbeddingModelChoice;
import io.poimen.memory.retrieval.fusion.CalibratedFusion;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;

/**
 * Says at start-up when the configured model packs its cosines more tightly than the one the cosine-unit
 * bonuses were fitted for: with BGE or E5 a lexical bonus of 0.1 cosine outweighs the dense list (E5 on
 * msmarco-5k: hybrid 0.78 against its dense branch's 0.83), and {@code bonus_unit: spread} fixes that
 * (docs/retrieval.md, "Bonus unit"). The shipped {@code bonus_unit: auto} picks spread for such a model; this
 * warns when an operator set {@code cosine} explicitly.
 */
public class BonusUnitAdvice implements ApplicationRunner {
    private static final Logger LOG = LoggerFactory.getLogger(BonusUnitAdvice.class);

    private final EmbeddingModelChoice model;
    private final RetrievalPolicy policy;

    public BonusUnitAdvice(EmbeddingModelChoice model, RetrievalPolicy policy) {
        this.model = model;
        this.policy = policy;
    }

    /**
     * The warning for this model and the unit in force ({@code auto} already resolved, so only an explicit
     * {@code cosine} with another model warns), if any.
     */
    static Optional<String> advice(EmbeddingModelChoice model, CalibratedFusion.Unit unit) {
        if (model == EmbeddingModelChoice.ALL_MINILM_L6_V2_Q || unit == CalibratedFusion.Unit.SPREAD) {
            return Optional.empty();
        }
        String fitted = EmbeddingModelChoice.ALL_MINILM_L6_V2_Q.id();
        String how = model.folder() != null
                ? " is not the model the fusion's bonuses in cosine units were fitted for (" + fitted + "): if it "
                        + "packs its cosines more tightly, the lexical bonus will outweigh its dense list."
                : " packs its cosines more tightly than " + fitted + ", for which the fusion's bonuses in cosine "
                        + "units were fitted: the lexical bonus will outweigh its dense list.";
        return Optional.of("poimen.embedding.model=" + model.id() + how + " Set fusion.calibrated.bonus_unit: "
                + "spread, or auto (spread for every model but " + fitted + "), in policies/retrieval.yaml "
                + "(docs/retrieval.md, \"Bonus unit\")");
    }

    @Override
    public void run(ApplicationArguments args) {
        advice(model, policy.current().calibration().unit()).ifPresent(LOG::warn);
    }
}
