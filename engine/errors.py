"""The one error the engine raises for a refused action."""

from __future__ import annotations

from enum import StrEnum

__all__ = ["Code", "IllegalAction"]


class Code(StrEnum):
    """Stable reasons for a refusal. Adapters translate these; never rename a member."""

    BAD_ACTION = "bad_action"  # not an action object, or malformed
    NOT_A_PLAYER = "not_a_player"  # the player is not seated at this game
    GAME_OVER = "game_over"  # nothing can be done after the game ended
    ROUND_OVER = "round_over"  # the round ended; only NextRound / Leave
    ROUND_IN_PROGRESS = "round_in_progress"  # NextRound / joining while a round is played
    NOT_YOUR_TURN = "not_your_turn"
    CARD_NOT_IN_HAND = "card_not_in_hand"
    DOES_NOT_MATCH = "does_not_match"  # the card does not match the top card / colour
    CHOOSE_COLOR = "choose_color"  # a colour must be named first (or is missing / invalid)
    NO_COLOR_NEEDED = "no_color_needed"  # a colour was given for a card that takes none
    CHOOSE_TARGET = "choose_target"  # a swap card needs a valid target player
    NO_TARGET_NEEDED = "no_target_needed"
    PENALTY_PENDING = "penalty_pending"  # stack, challenge or accept the pending penalty
    CANNOT_STACK = "cannot_stack"  # this card may not be played on the pending penalty
    NOTHING_PENDING = "nothing_pending"  # Accept with no penalty pending
    NOTHING_TO_CHALLENGE = "nothing_to_challenge"
    CHALLENGE_OPEN = "challenge_open"  # decide on the challenge first
    MUST_PLAY_DRAWN = "must_play_drawn"  # after drawing, only the drawn card may be played
    ALREADY_DRAWN = "already_drawn"  # you drew already this turn: play it or pass
    MUST_PLAY = "must_play"  # force_play: the drawn card must be played
    NOTHING_TO_PASS = "nothing_to_pass"  # Pass before drawing
    WILD_DRAW_FOUR_ILLEGAL = "wild_draw_four_illegal"  # no_bluff: you hold the colour
    NOT_AS_LAST_CARD = "not_as_last_card"  # last_card=number_only, or a deflect
    FIRST_PLAY_NUMBER = "first_play_number"  # the round's first play must be a number
    MULTI_PLAY_OFF = "multi_play_off"
    BAD_COMBINATION = "bad_combination"  # together-cards that may not go together
    NO_JUMP_IN = "no_jump_in"  # jumping in is off, or not possible now
    NOT_IDENTICAL = "not_identical"  # a jump-in needs the identical card
    NOT_ONE_CARD = "not_one_card"  # UNO called while not holding one card
    ALREADY_CALLED = "already_called"
    NOT_CATCHABLE = "not_catchable"  # the target is not exposed
    CANNOT_CATCH_SELF = "cannot_catch_self"
    NO_WINDOW = "no_window"  # Timeout(window="uno") on a player who is not exposed
    # issue 14
    WILD_DRAW_FOUR_PLAYABLE = "wild_draw_four_playable"  # no_bluff + no_play: you can play
    FOLLOW_COLOR = "follow_color"  # after_penalty=same_color: play the colour in play
    UNO_TOO_LATE = "uno_too_late"  # uno_call=with_play: UNO is called with the play
    GAME_FULL = "game_full"
    ALREADY_SEATED = "already_seated"


class IllegalAction(Exception):
    """A refused action. ``code`` is a stable :class:`Code`; ``message`` is for logs.

    A refused ``apply`` leaves the game exactly as it was.
    """

    def __init__(self, code: Code | str, message: str = "") -> None:
        self.code: Code = Code(code)
        self.message = message or self.code.value
        super().__init__(f"{self.code.value}: {self.message}")

    def __reduce__(self) -> tuple[object, ...]:
        return (IllegalAction, (self.code, self.message))
