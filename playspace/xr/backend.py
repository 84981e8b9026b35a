"""The thin layer over pyopenxr: the instance, the session, its spaces, actions and events.

Everything that can be decided without a runtime lives above this module, in pure Python
(:mod:`~playspace.xr.state`, :mod:`~playspace.xr.bindings`, :mod:`~playspace.xr.mapping`,
:mod:`~playspace.xr.views`) and is tested there; this module turns OpenXR structures into
their plain records and back. pyopenxr has no type information, so ``Any`` stays in here.

Opening fails in one of three ways, raised as :class:`~playspace.xr.state.XrUnavailable` by
the step that failed: the loader finds no runtime (or the runtime will not start), the runtime
has no head-mounted display, or it refuses the session (graphics binding, spaces, actions,
swapchains). The loader's own stderr chatter is silenced (``XR_LOADER_DEBUG=none``) unless
the user set ``XR_LOADER_DEBUG``: the caller prints one clear message instead.

Graphics: the GL context ``render_eye`` draws with must be current when the backend opens;
:mod:`~playspace.xr.graphics` binds it (EGL through ``XR_MNDX_egl_enable``, GLX or WGL through
``XR_KHR_opengl_enable``) and :mod:`~playspace.xr.display` owns the swapchains and frame
calls. Without graphics, ``XR_MND_headless`` gives an input-only session: no frame calls at
all (Monado fails ``xrBeginFrame`` there), and the time to locate at comes from
``XR_KHR_convert_timespec_time``.
"""

from __future__ import annotations

import ctypes
import logging
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import xr  # type: ignore[import-untyped]

from playspace.components import DeviceRole
from playspace.components.haptics import HapticPulse
from playspace.components.session import SessionState
from playspace.xr import bindings
from playspace.xr.bindings import ActionType
from playspace.xr.display import STEREO, XrDisplay
from playspace.xr.errors import failing_as, mid_session
from playspace.xr.graphics import current_gl_binding, require_binding_extensions
from playspace.xr.mapping import (
    ActionStates,
    HandActions,
    LocatedJoints,
    LocatedPose,
    LocatedPoses,
)
from playspace.xr.state import (
    FailureKind,
    InstanceLossPending,
    InteractionProfileChanged,
    ReferenceSpaceChanged,
    RefreshRateChanged,
    StateChanged,
    XrEvent,
    XrUnavailable,
)

log = logging.getLogger(__name__)

PYOPENXR_VERSION: str = xr.__version__  # the OpenXR loader ships inside this wheel

OPENGL, EGL, HEADLESS = "XR_KHR_opengl_enable", "XR_MNDX_egl_enable", "XR_MND_headless"
TIMESPEC = "XR_KHR_convert_timespec_time"
REFRESH_RATE = "XR_FB_display_refresh_rate"
HAND_TRACKING = "XR_EXT_hand_tracking"
WANTED = (
    OPENGL,
    EGL,
    HEADLESS,
    TIMESPEC,
    REFRESH_RATE,
    HAND_TRACKING,
    "XR_KHR_composition_layer_depth",  # display.DEPTH_LAYER: the eyes' depth to the compositor
    *sorted({p.extension for p in bindings.PROFILES if p.extension}),
)
_XR_ACTION_TYPES = {
    ActionType.BOOLEAN: xr.ActionType.BOOLEAN_INPUT,
    ActionType.FLOAT: xr.ActionType.FLOAT_INPUT,
    ActionType.VECTOR2: xr.ActionType.VECTOR2F_INPUT,
    ActionType.POSE: xr.ActionType.POSE_INPUT,
    ActionType.VIBRATION: xr.ActionType.VIBRATION_OUTPUT,
}
_EVENT_TYPES: dict[Any, XrEvent] = {
    xr.StructureType.EVENT_DATA_INSTANCE_LOSS_PENDING: InstanceLossPending(),
    xr.StructureType.EVENT_DATA_REFERENCE_SPACE_CHANGE_PENDING: ReferenceSpaceChanged(),
    xr.StructureType.EVENT_DATA_INTERACTION_PROFILE_CHANGED: InteractionProfileChanged(),
}


def quiet_loader() -> None:
    """Silence the loader's stderr lines, unless the user asked for them."""
    os.environ.setdefault("XR_LOADER_DEBUG", "none")


def runtime_extensions() -> list[str]:
    """The instance extensions the active runtime offers; XrUnavailable(NO_RUNTIME) if none."""
    quiet_loader()
    with failing_as(FailureKind.NO_RUNTIME):
        found = xr.enumerate_instance_extension_properties()
    return sorted(p.extension_name.decode() for p in found)


def create_instance(app_name: str, extensions: Sequence[str]) -> Any:
    """An instance for `app_name` (the name the runtime shows) with `extensions` enabled."""
    name = app_name.encode()[:127].decode(errors="ignore") or "playspace"
    info = xr.InstanceCreateInfo(
        application_info=xr.ApplicationInfo(application_name=name, engine_name="playspace"),
        enabled_extension_names=list(extensions),
    )
    with failing_as(FailureKind.NO_RUNTIME, "starting it"):
        return xr.create_instance(info)


def runtime_name(instance: Any) -> str:
    """The runtime's name and version: ``Monado(XRT) 21.0.0``."""
    with failing_as(FailureKind.NO_RUNTIME, "asking its name"):
        properties = xr.get_instance_properties(instance)
    return f"{properties.runtime_name.decode()} {properties.runtime_version}"


def headset(instance: Any) -> tuple[Any, str]:
    """The head-mounted display's system id and name; XrUnavailable(NO_HEADSET) if none."""
    with failing_as(FailureKind.NO_HEADSET):
        system = xr.get_system(instance, xr.SystemGetInfo())
        return system, xr.get_system_properties(instance, system).system_name.decode()


@dataclass(frozen=True, slots=True)
class RuntimeReport:
    """What ``playspace doctor`` shows of the runtime: `headset` is the HMD's name, or why
    there is none."""

    runtime: str
    extensions: list[str]
    headset: str


def probe_runtime() -> RuntimeReport:
    """Ask the active runtime what it is, offers and sees; XrUnavailable(NO_RUNTIME) if none."""
    extensions = runtime_extensions()
    instance = create_instance("playspace doctor", [])
    try:
        try:
            found = headset(instance)[1]
        except XrUnavailable as error:
            found = f"none ({error.detail})"
        return RuntimeReport(runtime_name(instance), extensions, found)
    finally:
        xr.destroy_instance(instance)


class OpenXRBackend:
    """An instance, an HMD system and a running-to-be session, with playspace's actions.

    `graphics` False asks for an input-only (``XR_MND_headless``) session. `runtime` names the
    runtime and its version, `headset` the system, `stage` whether poses are in STAGE (else
    LOCAL). :meth:`destroy` is safe to call at any point, more than once.
    """

    def __init__(self, app_name: str, graphics: bool) -> None:
        self.extensions = runtime_extensions()
        self.enabled = [e for e in WANTED if e in self.extensions]
        self._handles: list[tuple[Callable[[Any], None], Any]] = []
        self.instance = self.own(xr.destroy_instance, create_instance(app_name, self.enabled))
        try:
            self._open(graphics)
        except BaseException:
            self.destroy()
            raise

    def _open(self, graphics: bool) -> None:
        self.runtime = runtime_name(self.instance)
        self.system, self.headset = headset(self.instance)
        if graphics:  # what the current context's binding (EGL, GLX or WGL) needs
            require_binding_extensions(self.extensions)
        elif missing := [e for e in (HEADLESS, TIMESPEC) if e not in self.extensions]:
            raise XrUnavailable(
                FailureKind.SESSION_REFUSED, f"an input-only session needs {', '.join(missing)}"
            )
        with failing_as(FailureKind.SESSION_REFUSED, "opening the session"):
            self._open_session(graphics)

    def own(self, destroy: Callable[[Any], None], handle: Any) -> Any:
        """Keep `handle` for :meth:`destroy` (with its destroy function); return it."""
        self._handles.append((destroy, handle))
        return handle

    def _open_session(self, graphics: bool) -> None:
        binding = None
        if graphics:
            xr.get_opengl_graphics_requirements_khr(self.instance, self.system)  # must precede
            binding = current_gl_binding(EGL in self.enabled)
        self._binding = binding  # kept alive as long as the session
        pointer = None if binding is None else ctypes.cast(ctypes.pointer(binding), ctypes.c_void_p)
        create = xr.SessionCreateInfo(system_id=self.system, next=pointer)
        self.session = self.own(xr.destroy_session, xr.create_session(self.instance, create))
        self.stage = xr.ReferenceSpaceType.STAGE in xr.enumerate_reference_spaces(self.session)
        self._space_type = (
            xr.ReferenceSpaceType.STAGE if self.stage else xr.ReferenceSpaceType.LOCAL
        )
        self.space = self._reference_space(self._space_type)
        self.view_space = self._reference_space(xr.ReferenceSpaceType.VIEW)
        self._create_actions()
        self._hand_trackers = self._create_hand_trackers()
        self.display = XrDisplay(self) if graphics else None

    def _reference_space(self, kind: Any) -> Any:
        info = xr.ReferenceSpaceCreateInfo(reference_space_type=kind)
        return self.own(xr.destroy_space, xr.create_reference_space(self.session, info))

    def _path(self, path: str) -> Any:
        return xr.string_to_path(self.instance, path)

    def _create_actions(self) -> None:
        self._hands = {
            DeviceRole.LEFT_HAND: self._path(bindings.HANDS[0]),
            DeviceRole.RIGHT_HAND: self._path(bindings.HANDS[1]),
        }
        hands = list(self._hands.values())
        info = xr.ActionSetCreateInfo(
            action_set_name=bindings.ACTION_SET_NAME,
            localized_action_set_name=bindings.ACTION_SET_LABEL,
        )
        self.action_set = self.own(xr.destroy_action_set, xr.create_action_set(self.instance, info))
        self.actions = {
            spec.name: xr.create_action(
                self.action_set,
                xr.ActionCreateInfo(
                    action_name=spec.name,
                    action_type=_XR_ACTION_TYPES[spec.type],
                    subaction_paths=hands,
                    localized_action_name=spec.label,
                ),
            )
            for spec in bindings.ACTIONS
        }
        for profile in bindings.PROFILES:
            self._suggest(profile)
        self._pose_spaces = {
            (name, hand): self.own(
                xr.destroy_space,
                xr.create_action_space(
                    self.session,
                    xr.ActionSpaceCreateInfo(action=self.actions[name], subaction_path=path),
                ),
            )
            for name in ("grip_pose", "aim_pose")
            for hand, path in self._hands.items()
        }
        attach = xr.SessionActionSetsAttachInfo(action_sets=[self.action_set])
        xr.attach_session_action_sets(self.session, attach)

    def _create_hand_trackers(self) -> tuple[Any, Any] | None:
        """A hand tracker per hand where the runtime offers ``XR_EXT_hand_tracking`` and the
        headset supports it; None (hands read from controllers only) otherwise."""
        if HAND_TRACKING not in self.enabled:
            return None
        tracking = xr.SystemHandTrackingPropertiesEXT()
        chain = ctypes.cast(ctypes.pointer(tracking), ctypes.c_void_p)  # a bare pointer is lost
        properties = xr.SystemProperties(next=chain)
        # pyopenxr's get_system_properties takes no chain to fill: the raw call does
        call = xr.raw_functions.xrGetSystemProperties
        xr.check_result(call(self.instance, self.system, ctypes.byref(properties)))
        if not tracking.supports_hand_tracking:
            log.info("OpenXR: the headset does not track bare hands")
            return None
        left, right = (
            self.own(
                xr.destroy_hand_tracker_ext,
                xr.create_hand_tracker_ext(
                    self.session,
                    xr.HandTrackerCreateInfoEXT(
                        hand=hand, hand_joint_set=xr.HandJointSetEXT.DEFAULT
                    ),
                ),
            )
            for hand in (xr.HandEXT.LEFT, xr.HandEXT.RIGHT)
        )
        self._locate_joints = ctypes.cast(
            xr.get_instance_proc_addr(self.instance, "xrLocateHandJointsEXT"),
            xr.PFN_xrLocateHandJointsEXT,
        )
        return left, right

    @property
    def hand_tracking(self) -> bool:
        """Whether bare hands are tracked (``XR_EXT_hand_tracking``, supported and created)."""
        return self._hand_trackers is not None

    def _suggest(self, profile: bindings.Profile) -> None:
        """Suggest one profile's bindings; a runtime that rejects them only loses that one."""
        if profile.extension is not None and profile.extension not in self.enabled:
            log.info("OpenXR: skipped %s: the runtime lacks %s", profile.name, profile.extension)
            return
        try:
            suggested = [
                xr.ActionSuggestedBinding(self.actions[action], self._path(path))
                for action, path in profile.bindings
            ]
            xr.suggest_interaction_profile_bindings(
                self.instance,
                xr.InteractionProfileSuggestedBinding(
                    interaction_profile=self._path(profile.path), suggested_bindings=suggested
                ),
            )
        except xr.XrException as error:
            log.info("OpenXR: skipped %s: %s", profile.name, type(error).__name__)

    # --- the session's life ------------------------------------------------------------

    @mid_session("xrPollEvent")
    def poll_events(self) -> list[XrEvent]:
        """Every event waiting, as plain records; other events (other spaces, ...) dropped."""
        events: list[XrEvent] = []
        while True:
            try:
                buffer = xr.poll_event(self.instance)
            except xr.EventUnavailable:
                return events
            kind = xr.StructureType(buffer.type)
            if kind == xr.StructureType.EVENT_DATA_SESSION_STATE_CHANGED:
                changed = _cast(buffer, xr.EventDataSessionStateChanged)
                events.append(StateChanged(SessionState(int(changed.state))))
            elif kind == xr.StructureType.EVENT_DATA_REFERENCE_SPACE_CHANGE_PENDING:
                changed = _cast(buffer, xr.EventDataReferenceSpaceChangePending)
                if changed.reference_space_type == self._space_type:  # not VIEW, not others
                    events.append(ReferenceSpaceChanged())
            elif kind == xr.StructureType.EVENT_DATA_DISPLAY_REFRESH_RATE_CHANGED_FB:
                changed = _cast(buffer, xr.EventDataDisplayRefreshRateChangedFB)
                events.append(RefreshRateChanged(float(changed.to_display_refresh_rate)))
            elif kind in _EVENT_TYPES:
                events.append(_EVENT_TYPES[kind])

    @mid_session("xrBeginSession")
    def begin(self) -> None:
        xr.begin_session(self.session, xr.SessionBeginInfo(STEREO))

    @mid_session("xrEndSession")
    def end(self) -> None:
        xr.end_session(self.session)

    @mid_session("xrRequestExitSession")
    def request_exit(self) -> None:
        xr.request_exit_session(self.session)

    def abandon(self) -> None:
        """Forget every handle without destroying it: the runtime went away, and a destroy
        call into what is left of it can crash the process."""
        self._handles.clear()

    def destroy(self) -> None:
        """Destroy every handle, newest first; a failure is logged, never raised."""
        while self._handles:
            destroy, handle = self._handles.pop()
            try:
                destroy(handle)
            except xr.XrException as error:  # expected after a failure: kept out of the way
                log.debug("OpenXR: %s failed: %s", destroy.__name__, type(error).__name__)

    @mid_session("xrGetCurrentInteractionProfile")
    def interaction_profile(self) -> str | None:
        """The profile bound to the right hand (else the left), as a path; None if neither."""
        for hand in (self._hands[DeviceRole.RIGHT_HAND], self._hands[DeviceRole.LEFT_HAND]):
            profile = xr.get_current_interaction_profile(self.session, hand).interaction_profile
            if profile:
                return str(xr.path_to_string(self.instance, profile))
        return None

    @mid_session("xrGetDisplayRefreshRateFB")
    def refresh_rate(self) -> float | None:
        """The display's refresh rate in Hz, where the runtime says it
        (``XR_FB_display_refresh_rate``); None where it does not."""
        if REFRESH_RATE not in self.enabled:
            return None
        rate = xr.get_display_refresh_rate_fb(self.session)  # a c_float, whatever it says
        hz = float(getattr(rate, "value", rate))
        return hz if hz > 0 else None

    # --- one frame (the display's calls are in playspace.xr.display) --------------------

    @mid_session("xrConvertTimespecTimeToTimeKHR")
    def now(self) -> int:
        """The runtime's clock now (XrTime, ns), for an input-only session with no frames."""
        ns = time.clock_gettime_ns(time.CLOCK_MONOTONIC)
        spec = xr.timespec(tv_sec=ns // 1_000_000_000, tv_nsec=ns % 1_000_000_000)
        return int(xr.convert_timespec_time_to_time_khr(self.instance, spec).value)

    @mid_session("xrSyncActions")
    def sync(self, at: int) -> tuple[ActionStates, LocatedPoses]:
        """Sync the actions and locate head and hands for display time `at`."""
        try:
            active = xr.ActiveActionSet(self.action_set, xr.NULL_PATH)
            xr.sync_actions(self.session, xr.ActionsSyncInfo(active_action_sets=[active]))
            actions = ActionStates(*(self._hand(path) for path in self._hands.values()))
        except xr.SessionNotFocused:
            actions = ActionStates()  # the controllers belong to the runtime's menu now
        left, right = DeviceRole.LEFT_HAND, DeviceRole.RIGHT_HAND
        spaces = self._pose_spaces
        poses = LocatedPoses(
            head=self._locate(self.view_space, at),
            left_grip=self._locate(spaces["grip_pose", left], at),
            right_grip=self._locate(spaces["grip_pose", right], at),
            left_aim=self._locate(spaces["aim_pose", left], at),
            right_aim=self._locate(spaces["aim_pose", right], at),
        )
        if self._hand_trackers is not None:
            trackers = self._hand_trackers
            poses = replace(
                poses,
                left_joints=self._joints(trackers[0], at),
                right_joints=self._joints(trackers[1], at),
            )
        return actions, poses

    def _joints(self, tracker: Any, at: int) -> LocatedJoints | None:
        """The tracker's 26 joints at `at`. pyopenxr's ``locate_hand_joints_ext`` hands the
        runtime no array to fill (``jointCount`` 0), so the call is made here with one."""
        locations = xr.HandJointLocationsEXT(
            joint_locations=(xr.HandJointLocationEXT * xr.HAND_JOINT_COUNT_EXT)()
        )
        info = xr.HandJointsLocateInfoEXT(base_space=self.space, time=at)
        try:
            result = xr.check_result(self._locate_joints(tracker, info, ctypes.byref(locations)))
        except xr.XrException:
            return None  # as a pose that cannot be located: nothing usable this frame
        if result.is_exception():
            return None
        joints = [locations._joint_locations[i] for i in range(xr.HAND_JOINT_COUNT_EXT)]
        return LocatedJoints(
            bool(locations.is_active),
            tuple((j.pose.position.x, j.pose.position.y, j.pose.position.z) for j in joints),
            tuple(
                (
                    j.pose.orientation.x,
                    j.pose.orientation.y,
                    j.pose.orientation.z,
                    j.pose.orientation.w,
                )
                for j in joints
            ),
            tuple(float(j.radius) for j in joints),
            tuple(int(j._location_flags) for j in joints),
        )

    def _hand(self, hand: Any) -> HandActions:
        def state(getter: Callable[[Any, Any], Any], name: str) -> Any:
            return getter(self.session, xr.ActionStateGetInfo(self.actions[name], hand))

        def pressed(name: str) -> bool:
            return bool(state(xr.get_action_state_boolean, name).current_state)

        stick = state(xr.get_action_state_vector2f, "stick").current_state
        return HandActions(
            float(state(xr.get_action_state_float, "grip").current_state),
            float(state(xr.get_action_state_float, "trigger").current_state),
            (float(stick.x), float(stick.y)),
            pressed("primary"),
            pressed("secondary"),
            pressed("menu"),
            pressed("stick_click"),
        )

    def _locate(self, space: Any, at: int) -> LocatedPose | None:
        try:
            location, velocity = xr.locate_space_with_velocity(space, self.space, at)
        except xr.XrException:
            return None  # e.g. a time the runtime no longer holds: nothing usable this frame
        p, q = location.pose.position, location.pose.orientation
        lv, av = velocity.linear_velocity, velocity.angular_velocity
        return LocatedPose(
            (p.x, p.y, p.z),
            (q.x, q.y, q.z, q.w),
            int(location.location_flags),
            (lv.x, lv.y, lv.z),
            (av.x, av.y, av.z),
            int(velocity.velocity_flags),
        )

    @mid_session("xrApplyHapticFeedback")
    def apply_haptics(self, pulses: Sequence[HapticPulse]) -> None:
        for pulse in pulses:
            ns = xr.MIN_HAPTIC_DURATION if pulse.duration == 0 else round(pulse.duration * 1e9)
            vibration = xr.HapticVibration(ns, pulse.frequency, pulse.amplitude)
            target = xr.HapticActionInfo(self.actions["haptic"], self._hands[pulse.hand])
            try:
                xr.apply_haptic_feedback(self.session, target, vibration)
            except xr.SessionNotFocused:
                return


def _cast(buffer: Any, kind: Any) -> Any:
    return ctypes.cast(ctypes.byref(buffer), ctypes.POINTER(kind)).contents
