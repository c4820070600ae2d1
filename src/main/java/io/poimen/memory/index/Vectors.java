package io.poimen.memory.index;

import io.poimen.memory.vault.Chunk;
import java.util.List;

/** What every {@link VectorIndex} checks before it writes or searches, and unit scaling. */
public final class Vectors {
    private Vectors() {
    }

    /** One vector per chunk, each {@link #check checked}; nothing is written when one fails. */
    public static void checkPairs(List<Chunk> chunks, List<float[]> vectors, int dimensions) {
        if (chunks.size() != vectors.size()) {
            throw new IllegalArgumentException("Got " + chunks.size() + " chunks but " + vectors.size() + " vectors");
        }
        for (int i = 0; i < vectors.size(); i++) {
            check(vectors.get(i), dimensions, "vector of chunk " + chunks.get(i).id());
        }
    }

    /** {@code dimensions} finite values, not all zero (the cosine of a zero vector is undefined). */
    public static void check(float[] vector, int dimensions, String what) {
        if (vector == null || vector.length != dimensions) {
            throw new IllegalArgumentException("The " + what + " has " + (vector == null ? "no" : vector.length)
                    + " dimensions, the index expects " + dimensions);
        }
        double norm = 0;
        for (float v : vector) {
            if (!Float.isFinite(v)) {
                throw new IllegalArgumentException("The " + what + " contains " + v);
            }
            norm += v * v;
        }
        if (norm == 0) {
            throw new IllegalArgumentException("The " + what + " is all zeros; cosine is undefined");
        }
    }

    /** {@code v} scaled to length 1 (a copy); {@code v} must have passed {@link #check}. */
    public static float[] unit(float[] v) {
        double norm = 0;
        for (float x : v) {
            norm += x * x;
        }
        float scale = (float) (1 / Math.sqrt(norm));
        float[] out = new float[v.length];
        for (int i = 0; i < v.length; i++) {
            out[i] = v[i] * scale;
        }
        return out;
    }
}
