package io.poimen.memory.retrieval;

import io.poimen.memory.retrieval.branch.Branch;
import io.poimen.memory.retrieval.branch.BranchResult;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The branch answers the multicast collected so far, and the positions (in the multicast, from 0) of the branches it
 * gave up on at its timeout. Immutable: each answer makes a new value.
 */
public record BranchAnswers(Map<Branch, BranchResult> answers, Set<Integer> late) {
    public static final BranchAnswers NONE = new BranchAnswers(Map.of(), Set.of());

    public BranchAnswers {
        answers = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(answers));
        late = java.util.Collections.unmodifiableSet(new TreeSet<>(late));
    }

    public BranchAnswers with(BranchResult result) {
        Map<Branch, BranchResult> a = new LinkedHashMap<>(answers);
        a.put(result.branch(), result);
        return new BranchAnswers(a, late);
    }

    public BranchAnswers late(int position) {
        Set<Integer> l = new TreeSet<>(late);
        l.add(position);
        return new BranchAnswers(answers, l);
    }
}
