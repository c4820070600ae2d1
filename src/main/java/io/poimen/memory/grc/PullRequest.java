package io.poimen.memory.grc;

/**
 * The parts of a Forgejo pull request the hub uses.
 *
 * @param state  Forgejo's {@code state}: open or closed (a merged pull request is closed and merged)
 * @param headRef the branch the pull request merges from
 */
public record PullRequest(int number, String htmlUrl, String state, boolean merged, String headRef) {
}
