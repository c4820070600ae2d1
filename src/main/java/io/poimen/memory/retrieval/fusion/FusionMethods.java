package io.poimen.memory.retrieval.fusion;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;

/** Fusion methods by name. */
public final class FusionMethods {
    private static final Map<String, Supplier<FusionMethod>> METHODS = Map.of(
            WeightedFusion.NAME, WeightedFusion::new,
            RrfFusion.NAME, RrfFusion::new,
            CalibratedFusion.NAME, CalibratedFusion::new,
            AdaptiveFusion.NAME, AdaptiveFusion::new);

    private FusionMethods() {
    }

    /** The method by name; calibrated and adaptive with the given bonuses, adaptive with the default gate. */
    public static FusionMethod of(String name, CalibratedFusion.Bonuses bonuses) {
        return of(name, bonuses, AdaptiveFusion.Gate.DEFAULTS);
    }

    /** The method by name; calibrated and adaptive with the given bonuses, adaptive with the given gate. */
    public static FusionMethod of(String name, CalibratedFusion.Bonuses bonuses, AdaptiveFusion.Gate gate) {
        return of(name, bonuses, gate, true);
    }

    /**
     * As {@link #of(String, CalibratedFusion.Bonuses, AdaptiveFusion.Gate)}, for one query: {@code semanticReadsQuery}
     * says whether the embedding model reads the query's script (only the adaptive fusion looks at it).
     */
    public static FusionMethod of(String name, CalibratedFusion.Bonuses bonuses, AdaptiveFusion.Gate gate,
                                  boolean semanticReadsQuery) {
        return of(name, bonuses, gate, semanticReadsQuery, null);
    }

    /**
     * As {@link #of(String, CalibratedFusion.Bonuses, AdaptiveFusion.Gate, boolean)}, with the query's term shares
     * per chunk for the adaptive gate's coverage keep (null: not known).
     */
    public static FusionMethod of(String name, CalibratedFusion.Bonuses bonuses, AdaptiveFusion.Gate gate,
                                  boolean semanticReadsQuery, ToDoubleFunction<String> termShares) {
        if (AdaptiveFusion.NAME.equals(name)) {
            return new AdaptiveFusion(bonuses, gate, semanticReadsQuery, termShares);
        }
        return CalibratedFusion.NAME.equals(name) ? new CalibratedFusion(bonuses) : of(name);
    }

    /** @throws IllegalArgumentException for an unknown name, naming it */
    public static FusionMethod of(String name) {
        Supplier<FusionMethod> m = name == null ? null : METHODS.get(name.trim().toLowerCase(Locale.ROOT));
        if (m == null) {
            throw new IllegalArgumentException("unknown fusion method '" + name + "', expected one of " + names());
        }
        return m.get();
    }

    public static List<String> names() {
        return List.of(AdaptiveFusion.NAME, CalibratedFusion.NAME, WeightedFusion.NAME, RrfFusion.NAME);
    }
}
