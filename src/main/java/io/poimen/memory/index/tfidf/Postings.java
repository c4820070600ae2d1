package io.poimen.memory.index.tfidf;

import java.util.Arrays;

/**
 * A growable postings list: chunk slots with one float weight each (text: normalised log tf; metadata: 1),
 * unordered (removal swaps with the last).
 */
final class Postings {
    private int[] slots = new int[4];
    private float[] weights = new float[4];
    private int size;

    void add(int slot, float weight) {
        if (size == slots.length) {
            slots = Arrays.copyOf(slots, size * 2);
            weights = Arrays.copyOf(weights, size * 2);
        }
        slots[size] = slot;
        weights[size] = weight;
        size++;
    }

    void remove(int slot) {
        for (int i = 0; i < size; i++) {
            if (slots[i] == slot) {
                size--;
                slots[i] = slots[size];
                weights[i] = weights[size];
                return;
            }
        }
    }

    int size() {
        return size;
    }

    int slot(int i) {
        return slots[i];
    }

    float weight(int i) {
        return weights[i];
    }
}
