#include "mqttload.h"

#include <QDeadlineTimer>
#include <QFile>
#include <QHash>
#include <QSet>
#include <QThread>

#include <algorithm>

namespace MqttDoctor::Test {

MqttLoad::MqttLoad(QStringList ports, QString user, QString password, QString outputDir)
    : m_ports(std::move(ports)), m_user(std::move(user)), m_password(std::move(password)), m_dir(std::move(outputDir))
{}

MqttLoad::~MqttLoad()
{
    for (auto &p : m_publishers)
        p->kill();
    for (auto &p : m_subscribers)
        p->kill();
    for (auto &p : m_publishers)
        p->waitForFinished(2000);
    for (auto &p : m_subscribers)
        p->waitForFinished(2000);
}

QStringList MqttLoad::commonArgs(int index) const
{
    return {QStringLiteral("-h"), QStringLiteral("127.0.0.1"),
            QStringLiteral("-p"), m_ports.at(index % m_ports.size()),
            QStringLiteral("-u"), m_user,
            QStringLiteral("-P"), m_password,
            QStringLiteral("-q"), QStringLiteral("1")};
}

QString MqttLoad::outputOf(int subscriber) const
{
    return QStringLiteral("%1/load-%2.out").arg(m_dir).arg(subscriber);
}

bool MqttLoad::startSubscribers(int count, int groups, int timeoutMs)
{
    m_groups = groups;
    m_sent = QList<QStringList>(groups);
    const auto start = [this, groups](int i) -> std::unique_ptr<QProcess> {
        auto p = std::make_unique<QProcess>();
        p->setStandardOutputFile(outputOf(i));
        p->setStandardErrorFile(outputOf(i) + QStringLiteral(".err"));
        // -d prints the SUBACK; -v prints "topic payload" for each message; -c keeps the session.
        // Line-buffered (stdbuf), or the output sits in stdio's buffer until the process exits.
        p->start(QStringLiteral("stdbuf"),
                 QStringList{QStringLiteral("-oL"), QStringLiteral("mosquitto_sub")} + commonArgs(i)
                     + QStringList{QStringLiteral("-i"), QStringLiteral("load-%1").arg(i), QStringLiteral("-c"), QStringLiteral("-d"),
                                   QStringLiteral("-v"), QStringLiteral("-t"), QStringLiteral("load/%1/#").arg(i % groups)});
        if (!p->waitForStarted(5000)) {
            m_error = QStringLiteral("mosquitto_sub %1: %2").arg(i).arg(p->errorString());
            return nullptr;
        }
        return p;
    };
    for (int i = 0; i < count; ++i) {
        auto p = start(i);
        if (!p)
            return false;
        m_subscribers.push_back(std::move(p));
    }
    const QDeadlineTimer deadline(timeoutMs);
    QSet<int> waiting;
    for (int i = 0; i < count; ++i)
        waiting.insert(i);
    // A SUBACK of 128: the server could not make the subscription's durable in time (a cluster busy with other
    // tests answers its JetStream API late). That client subscribes again, as a device would, at most 3 times.
    QHash<int, int> retries;
    while (!waiting.isEmpty()) {
        for (auto it = waiting.begin(); it != waiting.end();) {
            QFile f(outputOf(*it));
            const QByteArray out = f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
            if (out.contains("received SUBACK") && out.contains("): 128") && retries[*it] < 3) {
                ++retries[*it];
                m_subscribers[size_t(*it)]->kill();
                m_subscribers[size_t(*it)]->waitForFinished(5000);
                QThread::msleep(500);
                auto p = start(*it);
                if (!p)
                    return false;
                m_subscribers[size_t(*it)] = std::move(p);
                ++it;
            } else if (out.contains("received SUBACK")) {
                it = waiting.erase(it);
            } else {
                ++it;
            }
        }
        if (waiting.isEmpty())
            break;
        if (deadline.hasExpired()) {
            const int first = *waiting.begin();
            QFile err(outputOf(first) + QStringLiteral(".err"));
            err.open(QIODevice::ReadOnly);
            m_error = QStringLiteral("%1 of %2 subscribers got no SUBACK (load-%3: %4)")
                          .arg(waiting.size())
                          .arg(count)
                          .arg(first)
                          .arg(QString::fromUtf8(err.readAll()).trimmed());
            return false;
        }
        QThread::msleep(100);
    }
    return true;
}

bool MqttLoad::startPublishers()
{
    for (int g = 0; g < m_groups; ++g) {
        auto p = std::make_unique<QProcess>();
        p->setStandardOutputFile(QStringLiteral("%1/pub-%2.out").arg(m_dir).arg(g));
        p->setStandardErrorFile(QStringLiteral("%1/pub-%2.err").arg(m_dir).arg(g));
        p->start(QStringLiteral("mosquitto_pub"),
                 commonArgs(g)
                     + QStringList{QStringLiteral("-i"), QStringLiteral("load-pub-%1").arg(g), QStringLiteral("-l"), QStringLiteral("-t"),
                                   QStringLiteral("load/%1/m").arg(g)});
        if (!p->waitForStarted(5000)) {
            m_error = QStringLiteral("mosquitto_pub %1: %2").arg(g).arg(p->errorString());
            return false;
        }
        m_publishers.push_back(std::move(p));
    }
    return true;
}

void MqttLoad::publishRound()
{
    for (int g = 0; g < int(m_publishers.size()); ++g) {
        const QString payload = QStringLiteral("g%1-%2").arg(g).arg(m_sent[g].size());
        m_sent[g] << payload;
        m_publishers[g]->write((payload + QLatin1Char('\n')).toUtf8());
        m_publishers[g]->waitForBytesWritten(100);
        ++m_published;
    }
}

bool MqttLoad::stopPublishers(int timeoutMs)
{
    bool ok = true;
    for (auto &p : m_publishers)
        p->closeWriteChannel(); // end of input: mosquitto_pub sends what it read and exits
    for (auto &p : m_publishers) {
        if (!p->waitForFinished(timeoutMs) || p->exitCode() != 0) {
            m_error = QStringLiteral("a publisher did not finish cleanly (exit %1)").arg(p->exitCode());
            ok = false;
        }
    }
    return ok;
}

QStringList MqttLoad::waitDelivered(int timeoutMs) const
{
    const QDeadlineTimer deadline(timeoutMs);
    QStringList missing;
    for (;;) {
        missing.clear();
        int first = -1; // the first subscriber with something missing
        const auto lacks = [&](int i, const QString &what) {
            missing << what;
            if (first < 0)
                first = i;
        };
        for (int i = 0; i < int(m_subscribers.size()); ++i) {
            const int g = i % m_groups;
            QFile f(outputOf(i));
            if (!f.open(QIODevice::ReadOnly)) {
                lacks(i, QStringLiteral("load-%1: no output").arg(i));
                continue;
            }
            QSet<QString> got;
            const QByteArray prefix = QStringLiteral("load/%1/m ").arg(g).toUtf8();
            for (const QByteArray &line : f.readAll().split('\n'))
                if (line.startsWith(prefix))
                    got.insert(QString::fromUtf8(line.mid(prefix.size())));
            int lost = 0;
            for (const QString &p : m_sent.at(g))
                lost += got.contains(p) ? 0 : 1;
            if (lost > 0)
                lacks(i, QStringLiteral("load-%1 lacks %2 of %3 messages of group %4").arg(i).arg(lost).arg(m_sent.at(g).size()).arg(g));
        }
        if (missing.isEmpty())
            return missing;
        if (deadline.hasExpired()) {
            // What the first one lacking messages was doing: still connected, reconnecting, gone?
            QFile out(outputOf(first));
            (void)out.open(QIODevice::ReadOnly);
            const QList<QByteArray> lines = out.readAll().trimmed().split('\n');
            const QProcess &process = *m_subscribers.at(size_t(first));
            missing.prepend(QStringLiteral("load-%1 is %2; its last output lines: %3")
                                .arg(first)
                                .arg(process.state() == QProcess::Running ? QStringLiteral("running")
                                                                          : QStringLiteral("gone (exit %1)").arg(process.exitCode()))
                                .arg(QString::fromUtf8(lines.mid(std::max<qsizetype>(0, lines.size() - 6)).join(" | "))));
            return missing;
        }
        QThread::msleep(250);
    }
}

void MqttLoad::stopSubscribers()
{
    for (auto &p : m_subscribers)
        p->terminate();
    for (auto &p : m_subscribers)
        if (!p->waitForFinished(5000))
            p->kill();
}

} // namespace MqttDoctor::Test
