"""Message methods taken from a class once, for the hot paths.

With protobuf's upb runtime, a method looked up on a message (``state.HasField``)
is first searched for among the message's fields by name, which costs about as
much as a cheap method's work; taken from the class (``has_field(state,
"outcome")``) it is found once, at import. Every generated class has upb's own
methods, so each of these serves any message of the game.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from throneroom.v1 import king_is_dead_pb2 as pb

_ANY: Any = pb.KingIsDeadState
"""A generated class: its methods are upb's, the same for every message class."""

has_field: Callable[[Any, str], bool] = _ANY.HasField
clear_field: Callable[[Any, str], None] = _ANY.ClearField
copy_from: Callable[[Any, Any], None] = _ANY.CopyFrom
merge_from_string: Callable[[Any, bytes], int] = _ANY.MergeFromString
serialize: Callable[[Any], bytes] = _ANY.SerializeToString
clear: Callable[[Any], None] = _ANY.Clear
set_in_parent: Callable[[Any], None] = _ANY.SetInParent
which_oneof: Callable[[Any, str], str | None] = _ANY.WhichOneof
