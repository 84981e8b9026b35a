"""What a listener hears, rendered headless through OpenAL Soft's loopback device: a sound to
the right is louder in the right ear and, with HRTF, arrives there first; a far one is quieter;
one not placed is the same in both ears; an entity's sound follows it and stops when told; the
same events give the same samples; a world with no sound device runs on, silent."""

from __future__ import annotations

import logging
import math
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

from playspace import spatial
from playspace.app import build_world
from playspace.components import Transform
from playspace.components.audio import AudioSettings, PlaySound, Sound, SoundBank, SurfaceSound
from playspace.components.drawn import Ghosts
from playspace.components.haptics import HapticQueue
from playspace.components.joints import Joint, JointKind
from playspace.components.physics import BodyCommands, Box, SetVelocity
from playspace.components.tracking import DeviceRole
from playspace.ecs import World
from playspace.formats.scene import SceneError, load_scene
from playspace.prelude import ScriptedSource, standing_frame
from playspace.systems import audio as audio_systems
from playspace.systems.audio import Audio, AudioPlugin, render
from playspace.systems.audio.openal import OpenALError
from playspace.systems.audio.rolling import Rolling
from playspace.systems.input import ReplaySource, load_trace
from playspace.systems.interaction.events import ButtonPressed, LetGo, Released, Socketed
from playspace.systems.physics.events import Impact
from tests.grab_helpers import HAND, ball_in_hand, grab_world, holding_still, named, pan, swing
from tests.physics_helpers import ball, floor, physics_world, static
from tests.rig_helpers import head_at, rig_world

RATE = 48000
Samples = npt.NDArray[np.float32]


@pytest.fixture(scope="module")
def noise(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tenth of a second of white noise, faded in and out: every frequency, so the head's
    shadow and the ears' delay both show."""
    import soundfile

    path = tmp_path_factory.mktemp("sounds") / "noise.wav"
    rng = np.random.default_rng(7)
    samples = rng.uniform(-0.8, 0.8, RATE // 10) * np.hanning(RATE // 10)
    soundfile.write(str(path), samples.astype(np.float32), RATE)
    return path


def _world() -> World:
    world = World()
    world.add_plugin(AudioPlugin(output="memory"))
    world.advance(0.1)  # the listener placed, at the origin facing -Z; the world set up
    return world


def _heard(world: World, *events: PlaySound, seconds: float = 0.2) -> Samples:
    for event in events:
        world.send(event)
    world.advance(1 / 90)
    return render(world, round(seconds * RATE))


def _loudness(samples: Samples) -> tuple[float, float]:
    left, right = np.sqrt((samples**2).mean(axis=0))
    return float(left), float(right)


def _right_ear_ahead_ms(samples: Samples) -> float:
    """How much sooner the right ear hears it than the left, by cross-correlation."""
    left, right = samples[:, 0], samples[:, 1]
    lag = int(np.argmax(np.correlate(left, right, "full"))) - (len(left) - 1)
    return lag / RATE * 1000


def test_a_sound_to_the_right_is_louder_there_and_arrives_there_first(noise: Path) -> None:
    """A source 2 m away, 60 degrees right of the nose. Straight to the side the far ear is
    so shadowed by the head that the cross-correlation's peak drifts late: OpenAL Soft's
    built-in data set measured 0.85 ms there on one machine and under 0.8 on others."""
    world = _world()
    engine = world.resource(Audio).engine
    assert engine is not None and engine.hrtf
    side, ahead = 2.0 * math.sin(math.radians(60)), -2.0 * math.cos(math.radians(60))
    heard = _heard(world, PlaySound(str(noise), at=spatial.vec3(side, 0.0, ahead)))
    left, right = _loudness(heard)
    assert right > 2 * left > 0
    assert 0.2 <= _right_ear_ahead_ms(heard) <= 0.8
    mirrored = _heard(world, PlaySound(str(noise), at=spatial.vec3(-side, 0.0, ahead)))
    assert _loudness(mirrored)[0] > 2 * _loudness(mirrored)[1]  # the control: to the left
    assert -0.8 <= _right_ear_ahead_ms(mirrored) <= -0.2


def test_a_far_sound_is_quieter_and_one_not_placed_is_the_same_in_both_ears(noise: Path) -> None:
    world = _world()
    near = sum(_loudness(_heard(world, PlaySound(str(noise), at=spatial.vec3(0, 0, -1.0)))))
    far = sum(_loudness(_heard(world, PlaySound(str(noise), at=spatial.vec3(0, 0, -8.0)))))
    assert far < near / 4  # 1 m to 8 m: an eighth, as the inverse distance model has it
    left, right = _loudness(_heard(world, PlaySound(str(noise))))
    assert left == pytest.approx(right, rel=1e-3) and left > 0


def test_an_entity_s_sound_follows_it_and_stops_when_told(noise: Path) -> None:
    world = _world()
    buzzing = world.spawn(Transform(spatial.vec3(-3.0, 0.0, 0.0)), Sound(str(noise)))
    left, right = _loudness(_heard(world))
    assert left > 2 * right  # a looping sound on the left
    world.get(buzzing, Transform).position = spatial.vec3(3.0, 0.0, 0.0)
    left, right = _loudness(_heard(world))
    assert right > 2 * left  # it moved, and the sound with it
    world.get(buzzing, Sound).playing = False
    world.advance(1 / 90)
    stopped = render(world, RATE // 10)
    assert np.abs(stopped[RATE // 100 :]).max() == 0.0  # silent once the HRTF's tail has rung
    world.despawn(buzzing)
    world.advance(1 / 90)


def _rendered(noise: Path, early: bool = False) -> bytes:
    """60 frames of one-shots and a sound circling the head, mixed frame by frame once the
    frame's sounds are placed (or, `early`, before)."""
    world = _world()
    circling = world.spawn(Transform(spatial.vec3(0.0, 0.0, -2.0)), Sound(str(noise)))
    out = []
    for step in range(60):
        world.get(circling, Transform).position = spatial.vec3(
            2 * np.sin(step / 9), 0.0, -2 * np.cos(step / 9)
        )
        if step % 20 == 3:
            world.send(PlaySound(str(noise), at=spatial.vec3(step / 20 - 1.0, 0.2, -1.0)))
        if early:
            out.append(render(world, 533 + step % 2))
        world.advance(1 / 90)
        if not early:
            out.append(render(world, 533 + step % 2))
    return np.concatenate(out).tobytes()


def test_the_same_events_give_the_same_samples(noise: Path) -> None:
    first = _rendered(noise)
    assert _rendered(noise) == first
    assert _rendered(noise, early=True) != first  # the control: mixed out of turn
    assert np.frombuffer(first, np.float32).any()


def test_a_sound_that_cannot_be_read_is_said_once_and_not_played(
    caplog: pytest.LogCaptureFixture, tmp_path: Path
) -> None:
    world = _world()
    missing = str(tmp_path / "nowhere.wav")
    with caplog.at_level(logging.WARNING):
        heard = _heard(world, PlaySound(missing), PlaySound(missing))
    said = [r.getMessage() for r in caplog.records if "not played" in r.getMessage()]
    assert len(said) == 1 and "no such sound file" in said[0]
    assert np.abs(heard).max() == 0.0


def test_a_world_with_no_sound_device_runs_silent_and_says_so(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, noise: Path
) -> None:
    def refused(*args: object, **kwargs: object) -> None:
        raise OpenALError("no audio device could be opened")

    monkeypatch.setattr(audio_systems, "AudioEngine", refused)
    world = World()
    with caplog.at_level(logging.WARNING):
        world.add_plugin(AudioPlugin(output="device"))
    assert world.resource(Audio).engine is None
    assert any("no sound: no audio device" in r.getMessage() for r in caplog.records)
    world.send(PlaySound(str(noise), at=spatial.vec3(1.0, 0.0, 0.0)))
    world.spawn(Transform(), Sound(str(noise)))
    world.advance(1 / 90)  # nothing to play through: the frame goes on
    with pytest.raises(OpenALError, match="does not mix sound into memory"):
        render(world, 10)


def test_sound_values_are_checked_where_they_are_made() -> None:
    with pytest.raises(ValueError, match="a sound device is named by a non-empty name"):
        AudioSettings(device="")
    with pytest.raises(ValueError, match="sound pitch must be > 0"):
        Sound("x", pitch=0.0)
    with pytest.raises(ValueError, match="0 < min_distance <= max_distance"):
        PlaySound("x", min_distance=5.0, max_distance=1.0)
    with pytest.raises(ValueError, match="sound place must be finite"):
        PlaySound("x", at=spatial.vec3(float("nan"), 0.0, 0.0))


def _drop(height: float, steps: int = 120) -> tuple[list[Impact], Samples]:
    """A 1 kg wooden ball dropped from `height` onto a stone floor, heard from 2 m away: the
    impacts physics reported, and what was heard."""
    world = physics_world()
    world.add_plugin(AudioPlugin(output="memory"))
    floor(world)
    ball(world, spatial.vec3(0.0, 0.1 + height, -2.0), mass=1.0)
    impacts: list[Impact] = []
    heard = []
    for _ in range(steps):
        world.step(1)
        impacts += world.read_events(Impact, reader="test")
        heard.append(render(world, RATE // 90))
    return impacts, np.concatenate(heard)


def test_a_harder_knock_is_louder_and_a_resting_body_knocks_once() -> None:
    soft_hits, soft = _drop(0.1)
    hard_hits, hard = _drop(1.0)
    assert len(hard_hits) >= 1 and hard_hits[0].impulse > soft_hits[0].impulse
    assert sum(_loudness(hard)) > 2 * sum(_loudness(soft)) > 0
    resting, _ = _drop(0.0, steps=180)  # put down on the floor: it settles, it does not knock
    assert len(resting) <= 1 and len(soft_hits) <= 3


def _sounds_sent(world: World) -> list[PlaySound]:
    return world.read_events(PlaySound, reader="test")


def test_what_the_hands_do_sounds_where_it_happens() -> None:
    """A button to the right clicks in the right ear; a fast throw whooshes louder than a slow
    one, and a throw is not also a let-go's click."""
    world = _world()
    button = world.spawn(Transform(spatial.vec3(1.5, 0.0, -0.5)))
    world.send(ButtonPressed(button))
    world.advance(1 / 90)
    left, right = _loudness(render(world, RATE // 5))
    assert right > 2 * left > 0
    ball = world.spawn(Transform(spatial.vec3(0.0, 0.0, -1.0)))
    heard = []
    for speed in (3.0, 9.0):
        world.send(Released(0, ball, spatial.vec3(0.0, 0.0, -speed), spatial.vec3(0, 0, 0)))
        world.send(LetGo(0, ball, spatial.Pose.identity()))
        world.advance(1 / 90)
        sent = [sound.clip for sound in _sounds_sent(world)]
        assert sent.count("whoosh") == 1 and "release" not in sent
        heard.append(sum(_loudness(render(world, RATE // 2))))
    assert heard[1] > 1.5 * heard[0]
    world.send(LetGo(0, ball, spatial.Pose.identity()))  # put down: a release's click
    world.advance(1 / 90)
    assert [sound.clip for sound in _sounds_sent(world)] == ["release"]


def test_a_walking_player_makes_a_footstep_each_stride() -> None:
    walking = rig_world(lambda t: head_at(0.0, 1.7, -min(t, 3.0)), build=AudioPlugin().build)
    walking.world.events.subscribe("test", (PlaySound,))  # kept for the test from now on
    walking.world.step(round(3.5 * 90))  # 3 m walked: four strides of 0.7 m
    steps = [s for s in _sounds_sent(walking.world) if s.clip == "footstep"]
    assert len(steps) == 4


def test_a_scene_names_its_sounds_and_what_its_shapes_sound_of(noise: Path, tmp_path: Path) -> None:
    (tmp_path / "hum.wav").write_bytes(noise.read_bytes())
    scene = tmp_path / "room.toml"
    scene.write_text(
        '[sounds]\nhum = "hum.wav"\n\n'
        '[[box]]\nname = "floor"\nsize = [4, 0.2, 4]\nposition = [0, -0.1, 0]\n\n'
        '[[box]]\nname = "fridge"\nsize = [0.7, 1.8, 0.7]\nposition = [2, 0.9, -1]\n'
        'sound = "hum"\nsound_material = "metal"\n'
    )
    world, spawned = build_world(load_scene(scene), ScriptedSource(lambda t: standing_frame()))
    fridge = spawned["fridge"]
    assert world.get(fridge, Sound).clip == "hum" and world.get(fridge, Sound).loop
    assert world.get(fridge, SurfaceSound).material == "metal"
    assert world.resource(SoundBank).files["hum"] == tmp_path / "hum.wav"
    assert "buzz" in world.resource(SoundBank).files  # the project's own, beside the scene's
    scene.write_text(
        '[sounds]\nhum = "nowhere.wav"\n\n[[box]]\nname = "fridge"\nsize = [1, 1, 1]\n'
        'position = [2, 0.5, -1]\nsound_material = "jelly"\n'
    )
    with pytest.raises(SceneError) as refused:
        load_scene(scene)
    said = str(refused.value)
    assert "[sounds]: hum: no such sound file" in said or ("hum" in said and "no such" in said)
    assert "sound_material" in said and "jelly" in said


def _treble_share(samples: Samples) -> float:
    """The share of the sound's energy above 4 kHz."""
    spectrum = np.abs(np.fft.rfft(samples.mean(axis=1))) ** 2
    frequencies = np.fft.rfftfreq(len(samples), 1 / RATE)
    return float(spectrum[frequencies > 4000].sum() / spectrum.sum())


def test_a_sound_behind_a_wall_is_quieter_and_duller(noise: Path) -> None:
    heard = []
    for walled in (False, True):
        world = physics_world()
        world.add_plugin(AudioPlugin(output="memory"))
        if walled:  # a wall between the listener (at the origin) and the sound, 3 m ahead
            static(world, Box((4.0, 3.0, 0.2)), spatial.vec3(0.0, 0.0, -1.5))
        world.step(1)
        world.send(PlaySound(str(noise), at=spatial.vec3(0.0, 0.0, -3.0)))
        world.step(1)
        heard.append(render(world, RATE // 5))
    open_air, behind = heard
    assert sum(_loudness(behind)) < 0.7 * sum(_loudness(open_air))
    assert _treble_share(behind) < 0.5 * _treble_share(open_air)


def test_a_knock_on_what_the_hand_holds_is_felt_in_that_hand() -> None:
    """A ball dropped onto the ball the right hand holds: the knock is heard, and the right
    hand, not the left, gets a pulse as strong as it sounds."""

    def build(world: World) -> None:
        world.add_plugin(AudioPlugin())
        world.insert_resource(HapticQueue())  # what the headset loop drains
        ball_in_hand(world)

    run = grab_world(holding_still, build=build)
    world = run.world
    world.step(45)  # the ball is held
    queue = world.resource(HapticQueue)
    queue.drain()
    x, y, z = HAND
    ball(world, spatial.vec3(x, y + 0.5, z), radius=0.04, mass=0.3)
    felt = []
    for _ in range(60):
        world.step(1)
        felt += queue.drain()
    assert [pulse.hand for pulse in felt] == [DeviceRole.RIGHT_HAND]
    assert 0.3 < felt[0].amplitude <= 1.0 and 0.02 < felt[0].duration <= 0.08


def test_a_held_pan_pushed_into_a_wall_is_silent_there_and_a_thrown_ball_knocks_on_it() -> None:
    """The hand pushes the pan it holds 1.2 m forward, through a wall: the pan ghosts inside it
    and makes no knock. The control, a ball thrown at the same wall beside it, knocks."""

    def build(world: World) -> None:
        world.add_plugin(AudioPlugin(output="memory"))
        static(world, Box((3.0, 3.0, 0.6)), spatial.vec3(0.0, 1.5, -1.1))  # from -0.8 to -1.4
        pan(world, spatial.vec3(*HAND))

    run = grab_world(swing, build)
    world = run.world
    world.step(round(0.3 * 90))  # the pan is held, its grab's click heard
    world.read_events(Impact, reader="test")
    _sounds_sent(world)
    ghosted, knocks, sounds = False, [], []
    for _ in range(round(1.2 * 90)):
        world.step(1)
        ghosted |= named(world, "pan") in world.resource(Ghosts).entities
        knocks += world.read_events(Impact, reader="test")
        sounds += [s.clip for s in _sounds_sent(world) if s.clip.startswith("impact_")]
        render(world, RATE // 90)
    assert ghosted and knocks == [] and sounds == []
    thrown = ball(world, spatial.vec3(-1.0, 1.2, -0.3), radius=0.05, mass=0.3)
    world.resource(BodyCommands).send(SetVelocity(thrown, spatial.vec3(0.0, 0.0, -4.0)))
    for _ in range(30):
        world.step(1)
        knocks += world.read_events(Impact, reader="test")
        sounds += [s.clip for s in _sounds_sent(world) if s.clip.startswith("impact_")]
        render(world, RATE // 90)
    assert [knock.a for knock in knocks] == [thrown] and len(sounds) == 1


def test_a_drawer_runs_on_its_rails_and_thuds_at_the_end_of_its_travel() -> None:
    world = World()
    world.add_plugin(AudioPlugin())
    world.advance(0.1)  # past the world's set-up, which is not heard
    drawer = world.spawn(Transform(), Joint(JointKind.SLIDER, limits=(0.0, 0.25)))
    joint = world.get(drawer, Joint)
    heard = []
    for position, velocity in ((0.0, 0.0), (0.02, 0.4), (0.15, 0.6), (0.25, 0.0), (0.25, 0.0)):
        joint.position, joint.velocity = position, velocity  # as physics writes them
        world.advance(1 / 90)
        heard.append([sound.clip for sound in _sounds_sent(world)])
    assert heard == [[], ["drawer_slide"], [], ["joint_limit"], []]
    joint.position, joint.velocity = 0.24, -0.05  # eased back off the end, slowly
    world.advance(1 / 90)
    joint.position, joint.velocity = 0.25, 0.05  # and back onto it: a touch, not a thud
    world.advance(1 / 90)
    assert _sounds_sent(world) == []


def test_a_sound_from_nowhere_is_not_played_and_breaks_nothing(noise: Path) -> None:
    """On an entity that is gone: not played. On a body whose place went non-finite: it
    stays where it was heard last, and the next sounds play as ever."""
    world = _world()
    gone = world.spawn(Transform(spatial.vec3(1.0, 0.0, 0.0)))
    world.despawn(gone)
    assert np.abs(_heard(world, PlaySound(str(noise), entity=gone))).max() == 0.0
    broken = world.spawn(Transform(spatial.vec3(1.0, 0.0, 0.0)), Sound(str(noise)))
    world.advance(1 / 90)
    world.get(broken, Transform).position = spatial.vec3(float("nan"), 0.0, 0.0)
    heard = _heard(world, PlaySound(str(noise), at=spatial.vec3(-1.0, 0.0, 0.0)))
    assert np.isfinite(heard).all() and np.abs(heard).max() > 0


def test_the_world_s_set_up_is_not_heard() -> None:
    """A tool put in its socket as the scene is made makes no sound; one put there later does."""
    world = World()
    world.add_plugin(AudioPlugin())
    rack = world.spawn(Transform())
    world.send(Socketed(rack, 0))
    world.advance(1 / 90)
    assert _sounds_sent(world) == []
    world.advance(0.1)
    world.send(Socketed(rack, 0))
    world.advance(1 / 90)
    assert [sound.clip for sound in _sounds_sent(world)] == ["socket_snap"]


def test_a_sound_coming_closer_fast_is_higher(tmp_path: Path) -> None:
    """A 1 kHz hum on a body flying at the listener at 20 m/s is heard at 343 / (343 - 20)
    of its pitch (Doppler), one standing still at its own."""
    import soundfile

    hum = tmp_path / "hum.wav"
    t = np.arange(RATE) / RATE
    soundfile.write(str(hum), (0.5 * np.sin(2 * np.pi * 1000 * t)).astype(np.float32), RATE)
    pitches = []
    for speed in (0.0, 20.0):
        world = _world()
        flying = world.spawn(Transform(spatial.vec3(0.0, 0.0, -30.0)), Sound(str(hum)))
        heard = []
        for _ in range(45):
            world.get(flying, Transform).position += spatial.vec3(0.0, 0.0, speed / 90)
            world.advance(1 / 90)
            heard.append(render(world, RATE // 90))
        samples = np.concatenate(heard[10:]).mean(axis=1)
        spectrum = np.abs(np.fft.rfft(samples * np.hanning(len(samples))))
        pitches.append(float(np.fft.rfftfreq(len(samples), 1 / RATE)[np.argmax(spectrum)]))
    assert pitches[0] == pytest.approx(1000, abs=20)
    assert pitches[1] / pitches[0] == pytest.approx(343.3 / (343.3 - 20.0), abs=0.02)


def test_a_sound_speeding_up_by_a_little_each_frame_is_heard_at_its_speed(tmp_path: Path) -> None:
    """A velocity within a hair of the one OpenAL has is not sent again; a hum that speeds up
    by less than that hair every frame still reaches the pitch of its speed (were each frame
    compared with the one before, it would stay at rest's pitch)."""
    import soundfile

    hum = tmp_path / "hum.wav"
    t = np.arange(RATE) / RATE
    soundfile.write(str(hum), (0.5 * np.sin(2 * np.pi * 1000 * t)).astype(np.float32), RATE)
    world = _world()
    flying = world.spawn(Transform(spatial.vec3(0.0, 0.0, -60.0)), Sound(str(hum)))
    speed, heard = 0.0, []
    for frame in range(345):
        speed = min(12.0, speed + 0.04)  # under DOPPLER_STEP a frame
        world.get(flying, Transform).position += spatial.vec3(0.0, 0.0, speed / 90)
        world.advance(1 / 90)
        samples = render(world, RATE // 90)
        if frame >= 310:
            heard.append(samples)
    samples = np.concatenate(heard).mean(axis=1)
    spectrum = np.abs(np.fft.rfft(samples * np.hanning(len(samples))))
    pitch = float(np.fft.rfftfreq(len(samples), 1 / RATE)[np.argmax(spectrum)])
    assert pitch / 1000 == pytest.approx(343.3 / (343.3 - 12.0), abs=0.02)


def _rolled(speed: float, floored: bool) -> tuple[int, float]:
    """A ball sent across the floor at `speed` (or with no floor under it): how many voices
    roll at the end of half a second, and how loud it was."""
    world = physics_world()
    world.add_plugin(AudioPlugin(output="memory"))
    if floored:
        floor(world)
    rolling = ball(world, spatial.vec3(-1.0, 0.1, -1.5), radius=0.1, mass=0.5)
    world.step(10)  # settled on the floor, the world set up
    world.resource(BodyCommands).send(SetVelocity(rolling, spatial.vec3(speed, 0.0, 0.0)))
    heard = []
    for _ in range(45):
        world.step(1)
        heard.append(render(world, RATE // 90))
    return len(world.resource(Rolling).voices), sum(_loudness(np.concatenate(heard[10:])))


def test_a_ball_rolling_on_the_floor_rumbles_and_one_resting_or_flying_does_not() -> None:
    voices, loud = _rolled(2.0, floored=True)
    assert voices == 1 and loud > 2 * _rolled(0.5, floored=True)[1] > 0  # louder, faster
    assert _rolled(0.0, floored=True) == (0, 0.0)  # at rest
    voices, _ = _rolled(2.0, floored=False)  # falling through the air, then nothing under it
    assert voices == 0


def test_a_long_session_keeps_no_sound_events_once_every_reader_has_played_them(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The sound systems read their events as themselves: a cursor kept under another name
    held every PlaySound and DialTurned the workshop ever sent (35 after 400 steps), until the
    world dropped it, saying so."""
    examples = Path(__file__).resolve().parents[2] / "examples"
    trace = load_trace(examples / "traces" / "workshop.jsonl")
    world, _ = build_world(load_scene(examples / "workshop.toml"), ReplaySource(trace))
    world.add_plugin(AudioPlugin(output="memory"))
    with caplog.at_level(logging.WARNING, logger="playspace.ecs.world"):
        world.step(600)
    assert not caplog.records
    assert world.events.queue(PlaySound).sent >= 10  # the workshop is heard
    assert world.events.held() <= 4
