package io.poimen.memory.grc;

/**
 * Why a draft's change to one note cannot be applied to the vault as it is now.
 *
 * @param currentVersion the note's version now ("" when there is none)
 * @param text           the note with both sides between git's conflict markers ({@code <<<<<<< vault},
 *                       {@code >>>>>>> draft}), or null when the conflict is not about lines
 * @param reason         what happened, for a person
 */
public record EditConflict(String currentVersion, String text, String reason) {
}
